// shares the machine: no browser; a throw-away folder and pure functions, nothing timed.
// Your run beside the registered ones (report-src/your-run.ts, issue 50 item 6): a run folder's rows
// read as a run writes them, the section's cells counted by hand, and the run's one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunFolder, runOneLine, yourRunSection } from '../../report-src/your-run.ts';
import type { Row } from '../../report-src/record.ts';
import type { Trace } from '../../report-src/scorecards.ts';

const row = (r: Partial<Row>): Row => ({
  schema: 'trace/1', study: 'layers', arm: 'agent', run_id: 'r', condition_id: 'cards-state-01', policy: 'agent', browser: { name: 'chromium', version: '1' },
  layer: 'state', apparent_success: true, vts: false, false_completion: true, error: null, elapsed_ms: 2000, claim: { done: true }, ...r,
} as Row);

test('the section counts your traces and the registered ones on the same conditions, per who and layer, with time and tokens', () => {
  let id = 0;
  const t = (r: Row): Trace => ({ id: id++, run: 0, line: 0, row: r });
  const yours = [
    t(row({ agent: { name: 'mine', command: 'x', sha256: null }, claim: { done: true, usage: { input_tokens: 900, output_tokens: 100 } } })),
    t(row({ agent: { name: 'mine', command: 'x', sha256: null }, condition_id: 'cards-baseline-01', layer: 'baseline', vts: true, false_completion: false, elapsed_ms: 4000, claim: { done: false } })),
  ];
  const registered = [
    t(row({ arm: 'main', policy: 'selector-only', claim: undefined, ended_done: undefined })),
    // a condition your run did not take: not beside it
    t(row({ arm: 'main', policy: 'selector-only', condition_id: 'modal-state-01' })),
    // an evidence row is never beside it
    t(row({ study: 'evidence' as never, arm: 'arm-a' })),
  ];
  const lists: number[][] = [];
  const section = yourRunSection(yours, registered, (ids) => lists.push(ids) - 1, 'runs/run-agent-mine');
  const cell = (who: string, layer: string, m: string) => {
    const r = section.rows.find((x) => x.key.who === who && x.key.layer === layer)!;
    return [r.cells[m]!.k, r.cells[m]!.n];
  };
  assert.deepEqual(section.rows.map((r) => [r.key.who, r.key.layer]), [
    ['yours: mine (chromium)', 'all'], ['yours: mine (chromium)', 'baseline'], ['yours: mine (chromium)', 'state'],
    ['main: selector-only (chromium)', 'all'], ['main: selector-only (chromium)', 'state'],
  ]);
  assert.deepEqual(cell('yours: mine (chromium)', 'all', 'claimed'), [1, 2]);
  assert.deepEqual(cell('yours: mine (chromium)', 'all', 'vts'), [1, 2]);
  assert.deepEqual(cell('yours: mine (chromium)', 'all', 'fc'), [1, 2]);
  assert.deepEqual(cell('yours: mine (chromium)', 'all', 'fa'), [1, 2], 'it said not done on the baseline, which the store held');
  // a reference policy without a claim ended done by what its page showed
  assert.deepEqual(cell('main: selector-only (chromium)', 'state', 'claimed'), [1, 1]);
  const all = section.rows[0]!;
  assert.deepEqual(all.extra, { 'median s a task': '3.0', 'median tokens a task': 1000 });
  assert.deepEqual(lists[all.cells.vts!.hits], [1], 'the cell links to the trace it counts');
  assert.equal(section.rows[3]!.extra!['median tokens a task'], 'not reported');
});

test('a run folder is read as a run writes it; a folder without rows is refused with what to give', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-your-run-'));
  try {
    assert.throws(() => readRunFolder(dir), /no data\/ folder there/);
    const arm = path.join(dir, 'data/excluded/layers/agent');
    fs.mkdirSync(path.join(arm, 'x.files'), { recursive: true });
    fs.writeFileSync(path.join(arm, 'REASONS.jsonl'), '{"reason":"smoke"}\n');
    assert.throws(() => readRunFolder(dir), /no layers trace rows/);
    fs.writeFileSync(path.join(arm, 'run-smoke-1.jsonl'), `${JSON.stringify(row({}))}\n{"torn`);
    fs.writeFileSync(path.join(arm, 'run-smoke-1.failed-attempts.jsonl'), '{"error":"x"}\n');
    const read = readRunFolder(dir);
    assert.deepEqual(read.map((f) => [path.basename(f.file), f.rows.length]), [['run-smoke-1.jsonl', 1]]);
    assert.equal(runOneLine(read[0]!.rows, 'runs/run-agent-mine'),
      'your run: 1 traces; claimed done 1/1, VTS 0/1, false completions 1/1, false abandonments 0/1, errors 0/1; median 2.0 s a task, tokens not reported. Beside the registered: make report RUN=runs/run-agent-mine');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
