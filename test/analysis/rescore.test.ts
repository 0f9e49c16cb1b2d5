// shares the machine: no browser; a throw-away tree, and nothing it asserts depends on how fast it runs.
// make rescore's reading (analysis/rescore.ts): a real-application row and the files its trace kept
// (written by the run skeleton's writer) give the row's verdicts again; a file that was changed, or
// a row whose verdict the files do not support, is reported, never passed over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree } from '../helpers/tree.ts';
import { codeRoot } from '../../core/paths.ts';
import { TraceWriter } from '../../pipeline/kernel/trace-writer.ts';
import { rescoreRuns } from '../../analysis/rescore.ts';
import type { LayersRow } from '../../core/contracts.ts';

/** the first row of the registered Chromium real-apps run, as the record holds it */
function recordedRow(): LayersRow {
  const dir = path.join(codeRoot, 'data/raw/layers/real-apps');
  const file = fs.readdirSync(dir).filter((f) => f.includes('chromium') && f.endsWith('.jsonl')).sort()[0]!;
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8').split('\n')[0]!) as LayersRow;
}

const storeOf = (row: LayersRow, boundary: string | null, later: string | null) => JSON.stringify({
  postcondition: row.target.key, target: row.target.value, before: 'seeded', boundary: { at_ms: row.real_app!.read_at, value: boundary },
  later: later === null ? [] : [{ after_return_ms: 3000, at_ms: row.real_app!.returned + 3000, value: later }], changes: { before: null, boundary: null },
});
const harOf = (status: number) => JSON.stringify({ log: { version: '1.2', entries: [{ _write: true, request: { method: 'POST', url: 'http://127.0.0.1/save' }, response: { status } }] } });

test('the files give the row\'s verdicts again; another evaluator\'s verdicts come from the same files', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const base = recordedRow();
  const writer = TraceWriter.open({ study: 'layers', arm: 'real-apps', runId: 'r', key: (r) => `${r.condition_id}|${r.policy}` });
  // as recorded: its store at the boundary is what the row says it persisted
  writer.append({ ...base, files: [{ name: 'store.json', content: storeOf(base, base.persisted.value as string, base.target.value as string) }, { name: 'trace.har', content: harOf(302) }] });
  // a row whose verdict its own store read does not support
  const wrong = { ...base, policy: 'semantic-recovery', vts: !base.vts };
  writer.append({ ...wrong, files: [{ name: 'store.json', content: storeOf(base, base.persisted.value as string, null) }] });
  // a file changed after its row was written
  writer.append({ ...base, policy: 'verification-aware', files: [{ name: 'store.json', content: storeOf(base, base.persisted.value as string, null) }] });
  fs.appendFileSync(path.join(writer.file.replace(/\.jsonl$/, '.files'), `${base.condition_id}.verification-aware`, 'store.json'), ' ');

  const result = rescoreRuns([writer.file]);
  assert.equal(result.runs, 1);
  // the wrong row: its VTS is not what its store read gives (its false completion, from the row's AS and the file's VTS, still is)
  assert.deepEqual(result.rows.map((r) => [r.policy, r.disagrees]), [[base.policy, []], ['semantic-recovery', ['vts']]]);
  const [ok] = result.rows;
  assert.equal(ok!.vts, base.vts);
  assert.equal(ok!.false_completion, base.false_completion);
  assert.equal(ok!.fixed_wait_accept, true, 'the read 3 s after the return held the target');
  assert.equal(ok!.network_accept, true, 'the write was answered 302');
  assert.equal(result.rows[1]!.network_accept, null, 'no HAR: the network rule cannot say');
  assert.deepEqual(result.problems.map((p) => p.replace(/^.* (store\.json)/, '$1')), ['store.json\'s sha256 differs from the row\'s']);
});

/** the first small-app row of the registered Chromium transport run (version 1), as the record holds it */
function recordedSmallRow(): LayersRow {
  const dir = path.join(codeRoot, 'data/raw/layers/transport');
  const file = fs.readdirSync(dir).filter((f) => f.includes('chromium') && f.endsWith('.jsonl')).sort()[0]!;
  return fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LayersRow).find((r) => r.app === undefined && r.apparent_success && r.vts)!;
}

test('a small app\'s trace (transport, version 2): AS from when store.json says the page showed the success, VTS from its boundary read of the value\'s JSON text', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const base = { ...recordedSmallRow(), arm_version: 2, claim: { done: true }, claim_false_completion: false };
  const writer = TraceWriter.open({ study: 'layers', arm: 'transport', runId: 'r', key: (r) => `${r.condition_id}|${r.policy}` });
  const store = (shownAt: number | null, value: unknown) => JSON.stringify({
    postcondition: base.target.key, target: JSON.stringify(base.target.value), before: null, boundary: { at_ms: 900, value: value === null ? null : JSON.stringify(value) },
    later: [], notice: { shown_at_ms: shownAt }, changes: { before: 0, boundary: 1 },
  });
  writer.append({ ...base, files: [{ name: 'store.json', content: store(400, base.target.value) }] });
  // the page showed the success only after the boundary: the row's AS is not what its files give
  writer.append({ ...base, policy: 'other', files: [{ name: 'store.json', content: store(950, base.target.value) }] });
  const result = rescoreRuns([writer.file]);
  assert.deepEqual(result.problems, []);
  assert.deepEqual(result.rows.map((r) => [r.policy, r.apparent_success, r.vts, r.disagrees]), [[base.policy, true, true, []], ['other', false, true, ['apparent_success']]]);
  assert.equal(result.rows[0]!.fixed_wait_accept, null, 'no read after the return: the fixed-wait validator cannot say');
});
