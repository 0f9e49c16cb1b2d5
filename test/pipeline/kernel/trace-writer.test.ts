// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree } from '../../helpers/tree.ts';
import { TraceWriter } from '../../../pipeline/kernel/trace-writer.ts';
import { excludeFile } from '../../../pipeline/kernel/exclude.ts';
import { sha256 } from '../../../core/hash.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRow } from '../../../core/contracts.ts';

const row = (i: number): LayersRow => ({
  schema: 'trace/1', study: 'layers', arm: 'main', run_id: 'run-a', condition_id: `cards-baseline-${String(i).padStart(2, '0')}`,
  policy: 'selector-only', browser: { name: 'chromium', version: '1' }, ledger_head: 'a'.repeat(64),
  started_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 1, template: 'cards', layer: 'baseline', severity: 0,
  apparent_success: true, vts: true, false_completion: false, actions: 2, retries: 0, horizon_ms: 50,
  persisted: { key: 'A', value: 'B' }, target: { key: 'A', value: 'B' },
});
const key = (r: { condition_id: string; policy: string }) => `${r.condition_id}|${r.policy}`;

test('a torn last line is moved to data/excluded and the run resumes with no condition lost or duplicated', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const writer = TraceWriter.open({ study: 'layers', arm: 'main', runId: 'run-a', key });
  for (const i of [1, 2, 3]) writer.append(row(i));
  // a crash while writing condition 4: half a line, no newline
  const torn = JSON.stringify(row(4)).slice(0, 57);
  fs.appendFileSync(writer.file, torn);

  const resumed = TraceWriter.open({ study: 'layers', arm: 'main', runId: 'run-a', key });
  assert.equal(resumed.existingRows, 3);
  assert.ok(resumed.has('cards-baseline-03|selector-only'));
  assert.ok(!resumed.has('cards-baseline-04|selector-only'));
  for (const i of [1, 2, 3, 4, 5]) if (!resumed.has(key(row(i)))) resumed.append(row(i));

  const ids = readJsonl<{ condition_id: string }>(resumed.file, { schema: 'trace' }).map((r) => r.condition_id);
  assert.deepEqual(ids, [1, 2, 3, 4, 5].map((i) => row(i).condition_id));
  const excluded = fs.readFileSync(tree.file('data/excluded/layers/main/run-a.torn.txt'), 'utf8');
  assert.equal(excluded, torn);
  const reasons = readJsonl<{ reason: string; from: string }>(tree.file('data/excluded/REASONS.jsonl'), { schema: 'exclusion' });
  assert.equal(reasons.length, 1);
  assert.match(reasons[0]!.reason, /torn last line/);
  assert.equal(reasons[0]!.from, 'data/raw/layers/main/run-a.jsonl');
});

test('the writer refuses to write a trace twice and rejects a malformed row naming the field', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const writer = TraceWriter.open({ study: 'layers', arm: 'main', runId: 'run-b', key });
  writer.append(row(1));
  assert.throws(() => writer.append(row(1)), /already written/);
  const bad = { ...row(2), vts: 'yes' } as unknown as LayersRow; // a row that breaks the contract on purpose
  assert.throws(() => writer.append(bad), /field vts must be boolean/);
  assert.equal(fs.readFileSync(writer.file, 'utf8').split('\n').filter(Boolean).length, 1, 'nothing written for the bad row');
});

test('a unit\'s files are written beside the run before its row, which names each with its sha256; a redo moves them with the run file', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const writer = TraceWriter.open({ study: 'layers', arm: 'main', runId: 'run-a', key });
  writer.append({ ...row(1), files: [{ name: 'store.json', content: '{"before":"A"}\n' }, { name: 'trace.har', content: Buffer.from('{"log":{}}\n') }] });
  writer.append(row(2));
  const [first, second] = readJsonl<LayersRow>(writer.file, { schema: 'trace' });
  assert.equal((first as { files?: unknown }).files, undefined, 'the contents never enter the row');
  assert.deepEqual(first!.attachments!.map((a) => [a.name, a.path, a.bytes]), [
    ['store.json', 'cards-baseline-01.selector-only/store.json', 15],
    ['trace.har', 'cards-baseline-01.selector-only/trace.har', 11],
  ]);
  const stored = fs.readFileSync(tree.file('data/raw/layers/main/run-a.files/cards-baseline-01.selector-only/store.json'));
  assert.equal(first!.attachments![0]!.sha256, sha256(stored));
  assert.equal(second!.attachments, undefined);
  // a file name that would leave its folder is refused before anything is written
  assert.throws(() => writer.append({ ...row(3), files: [{ name: '../x', content: 'x' }] }), /named "\.\.\/x"/);
  assert.ok(!fs.existsSync(tree.file('data/raw/layers/main/run-a.files/x')));
  assert.equal(readJsonl(writer.file, { schema: 'trace' }).length, 2);

  const moved = excludeFile(writer.file, 'layers', 'main', 'superseded by a redo: test');
  assert.ok(fs.existsSync(moved.replace(/\.jsonl$/, '.files/cards-baseline-01.selector-only/trace.har')), 'the files went with the run file');
  assert.ok(!fs.existsSync(tree.file('data/raw/layers/main/run-a.files')));
});
