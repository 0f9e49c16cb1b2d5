// make rescore --webarena-verified as a user runs it, on a throw-away tree: WebArena-Verified's own
// evaluator (evaluators/.venv, made here if missing) reads each trace's HAR and claim from the files
// the trace kept, and its verdicts are counted against the store's. The row is the record's first
// real-apps row (WordPress's pending administration e-mail: the page says saved, the store keeps the old
// address); its HAR holds that family's write, answered 302 in one trace and 500 in the other.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript, type Tree } from '../../helpers/tree.ts';
import { readVerdicts } from '../../../analysis/evaluator-audit.ts';
import { rescoreFiles, rescoreRuns } from '../../../analysis/rescore.ts';
import { codeRoot, paths } from '../../../core/paths.ts';
import { registerVerdicts, webarenaVerified } from '../../../pipeline/evaluators/webarena-verified.ts';
import type { LedgerLine } from '../../../pipeline/kernel/ledger.ts';
import { TraceWriter } from '../../../pipeline/kernel/trace-writer.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { ensureEvaluatorsVenv } from '../../../pipeline/evaluators/install.ts';
import type { LayersRow } from '../../../core/contracts.ts';

before(async () => { await ensureEvaluatorsVenv('test'); });

function recordedRow(): LayersRow {
  const dir = path.join(codeRoot, 'data/raw/layers/real-apps');
  const file = fs.readdirSync(dir).filter((f) => f.includes('chromium') && f.endsWith('.jsonl')).sort()[0]!;
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8').split('\n')[0]!) as LayersRow;
}

/** the family's write as the proxy's HAR records it (proxy/src/har.ts), answered with `status` */
const harOf = (origin: string, status: number) => JSON.stringify({ log: { version: '1.2', creator: { name: 'rstackbench-fault-proxy', version: '1' }, pages: [], entries: [{
  startedDateTime: '2026-12-06T00:00:00.000Z', time: 1, _write: true, _t: 100,
  request: { method: 'POST', url: `${origin}/wp-admin/options.php`, httpVersion: 'HTTP/1.1', headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }], queryString: [], cookies: [], headersSize: -1, bodySize: 60,
    postData: { mimeType: 'application/x-www-form-urlencoded', text: 'option_page=general&action=update&new_admin_email=ops%40example.invalid' } },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: status < 400 ? [{ name: 'Location', value: '/wp-admin/options-general.php?settings-updated=true' }] : [], cookies: [], content: { size: 0, mimeType: 'text/html' }, redirectURL: status < 400 ? '/wp-admin/options-general.php?settings-updated=true' : '', headersSize: -1, bodySize: 0 },
  cache: {}, timings: { send: 0, wait: 1, receive: 0 },
}] } });

test('make rescore --webarena-verified: its evaluator credits the write answered 302 that the store does not hold, and not the one answered 500', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const base = { ...recordedRow(), claim: { done: true, message: 'the success notice showed' } };
  assert.equal(base.vts, false, 'the record\'s row: the store keeps the old address');
  const store = JSON.stringify({ postcondition: base.target.key, target: base.target.value, before: base.persisted.value, boundary: { at_ms: 1, value: base.persisted.value }, later: [], changes: { before: null, boundary: null } });
  const writer = TraceWriter.open({ study: 'layers', arm: 'real-apps', runId: 'r', key: (r) => `${r.condition_id}|${r.policy}` });
  writer.append({ ...base, files: [{ name: 'store.json', content: store }, { name: 'trace.har', content: harOf('http://127.0.0.1:8650', 302) }] });
  writer.append({ ...base, policy: 'semantic-recovery', files: [{ name: 'store.json', content: store }, { name: 'trace.har', content: harOf('http://127.0.0.1:8650', 500) }] });

  const ran = await runScript(tree, 'steps/rescore.ts', ['--webarena-verified']);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /2 traces of 1 run files/);
  assert.match(ran.stdout, /agree with their rows: 2 of 2/);
  assert.match(ran.stdout, /WebArena-Verified 1\.2\.3 \(HAR and claim\)\s+false accepts 1\/2 /);
  assert.match(ran.stdout, /network only \(the write got 2xx\/3xx\)\s+false accepts 1\/2 /);
});

test('make rescore on the registered record, from this checkout: every verdict of every trace that kept its files again, and WebArena-Verified\'s registered verdicts again from the same files', async () => {
  // the record as committed, read where it is (nothing is written: rescore writes only with --register)
  const record = { root: codeRoot } as Tree;
  const traces = rescoreFiles([path.join(codeRoot, 'data/raw')])
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LayersRow))
    .filter((r) => r.attachments?.length).length;
  const registered = readVerdicts(path.join(codeRoot, 'data/raw')).length;
  assert.ok(traces > 0 && registered > 0, 'the record holds traces with files and registered verdicts');
  const ran = await runScript(record, 'steps/rescore.ts', ['--webarena-verified']);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, new RegExp(`agree with their rows: ${traces} of ${traces}\\n`));
  // a live verdict that differs from its registered one would be a problem, and the exit 1
  assert.match(ran.stdout, new RegExp(`with WebArena-Verified's registered verdict: ${registered} \\(the live verdicts beside them`));
});

test('make rescore --register refuses before scoring unless its amendment is frozen, and writes nothing', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await freeze('test');
  const ran = await runScript(tree, 'steps/rescore.ts', ['--webarena-verified', '--register']);
  assert.equal(ran.exitCode, 3, ran.stderr);
  assert.match(ran.stderr, /no amendment that registers verdicts \(prereg\/layers-real-apps-amendment-2\.md, prereg\/layers-transport-amendment-3\.md\) is frozen in the ledger head/);
  assert.doesNotMatch(ran.stdout, /re-scored/, 'nothing was scored');
  assert.equal(fs.existsSync(tree.file('data/raw/evaluators')), false, 'nothing written');
  const bare = await runScript(tree, 'steps/rescore.ts', ['--register']);
  assert.equal(bare.exitCode, 2, bare.stderr);
  assert.match(bare.stderr, /--register goes with --webarena-verified/);
});

test("register writes a run file's verdicts only under its own arm's amendment: a transport run file is scored and written nowhere while only the real-apps amendment is frozen, and verify names a verdict file whose ledger entry lacks its arm's", async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const base = { ...recordedRow(), claim: { done: true, message: 'the success notice showed' } };
  const store = JSON.stringify({ postcondition: base.target.key, target: base.target.value, before: base.persisted.value, boundary: { at_ms: 1, value: base.persisted.value }, later: [], changes: { before: null, boundary: null } });
  const files = [{ name: 'store.json', content: store }, { name: 'trace.har', content: harOf('http://127.0.0.1:8650', 302) }];
  TraceWriter.open({ study: 'layers', arm: 'real-apps', runId: 'real', key: (r) => `${r.condition_id}|${r.policy}` }).append({ ...base, files });
  TraceWriter.open({ study: 'layers', arm: 'transport', runId: 'transport', key: (r) => `${r.condition_id}|${r.policy}` }).append({ ...base, arm: 'transport', run_id: 'transport', files });
  const result = rescoreRuns(rescoreFiles([paths.raw()]), (f) => path.relative(tree.root, f));
  assert.equal(result.inputs.length, 2, 'both traces go to the evaluator');
  const verdicts = await webarenaVerified(result.inputs);
  const ledgerHead = 'c'.repeat(64);
  const realApps = 'prereg/layers-real-apps-amendment-2.md';
  const { written, skipped } = await registerVerdicts(result, verdicts, { ledgerHead, commit: '0'.repeat(40), load: [0, 0, 0], scoredAt: new Date().toISOString(), frozen: new Set([realApps]) });
  assert.deepEqual(written.map((l) => l.split(':')[0]), ['data/raw/evaluators/webarena-verified/real.jsonl']);
  assert.equal(skipped.length, 1);
  assert.match(skipped[0]!, /^data\/raw\/layers\/transport\/transport\.jsonl: prereg\/layers-transport-amendment-3\.md is not frozen in the ledger head$/);
  assert.deepEqual(readVerdicts(paths.raw()).map((v) => v.verdict.run_file), ['data/raw/layers/real-apps/real.jsonl']);

  const { verdictProblems } = await import('../../../pipeline/steps/verify.ts');
  const entry = (files: string[]): LedgerLine[] => [{ hash: ledgerHead, text: '', line: 1, entry: { seq: 1, at: '2026-01-01T00:00:00.000Z', files: Object.fromEntries(files.map((f) => [f, 'a'.repeat(64)])) } as unknown as LedgerLine['entry'] }];
  const real = tree.file('data/raw/evaluators/webarena-verified/real.jsonl');
  assert.deepEqual(verdictProblems(real, entry([realApps])), []);
  const moved = tree.file('data/raw/evaluators/webarena-verified/transport.jsonl');
  fs.writeFileSync(moved, fs.readFileSync(real, 'utf8').replaceAll('data/raw/layers/real-apps/real.jsonl', 'data/raw/layers/transport/transport.jsonl'));
  assert.deepEqual(verdictProblems(moved, entry([realApps])), ['data/raw/evaluators/webarena-verified/transport.jsonl: its ledger entry 1 does not freeze prereg/layers-transport-amendment-3.md']);
  assert.deepEqual(verdictProblems(moved, entry([realApps, 'prereg/layers-transport-amendment-3.md'])), []);
});
