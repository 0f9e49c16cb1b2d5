// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// rstackbench compare: unit by unit, flips apart from the rows flagged timing-sensitive; and on the
// record, the superseded registered attempt against its successor shows the four Access rows the
// deviations section names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compareRuns, flipChange } from '../../../pipeline/steps/compare.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { codeRoot } from '../../../core/paths.ts';
import type { LayersRow, TraceRow } from '../../../core/contracts.ts';

const row = (id: string, vts: boolean, sensitive = false): LayersRow => ({
  schema: 'trace/1', study: 'layers', arm: 'main', run_id: 'r', condition_id: id, policy: 'selector-only',
  browser: { name: 'chromium', version: '1' }, ledger_head: 'a'.repeat(64), started_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 1,
  template: 'cards', layer: 'state', severity: 1, apparent_success: true, vts, false_completion: !vts, actions: 2, retries: 0,
  horizon_ms: 100, persisted: {}, target: {}, timing_sensitive: sensitive,
});

test('flips are counted apart from flagged rows, and rows present in one run only are named', () => {
  const a = [row('c1', true), row('c2', true), row('c3', true, true), row('c4', false)];
  const b = [row('c1', true), row('c2', false), row('c3', false), row('c5', true)];
  const c = compareRuns(a, b);
  assert.equal(c.same, 1);
  assert.deepEqual(c.flips.map((f) => f.key), ['c2|selector-only|100']);
  assert.equal(c.flaggedFlips, 1);
  assert.deepEqual(c.flagged.map((f) => f.key), ['c3|selector-only|100']);
  assert.equal(flipChange(c.flips[0]!), 'vts true → false, fc false → true');
  assert.deepEqual(c.onlyA, ['c4|selector-only|100']);
  assert.deepEqual(c.onlyB, ['c5|selector-only|100']);
});

test('on the record: the superseded Chromium attempt and the registered run differ on the four Access rows of amendment 4', () => {
  const dir = path.join(codeRoot, 'data');
  const attempt = readJsonl<TraceRow>(path.join(dir, 'excluded/layers/main/layers-main-chromium-20261129T220217.jsonl'));
  const registered = fs.readdirSync(path.join(dir, 'raw/layers/main')).find((f) => f.startsWith('layers-main-chromium-'))!;
  const c = compareRuns(attempt, readJsonl<TraceRow>(path.join(dir, 'raw/layers/main', registered)));
  const flipped = [...c.flips.map((f) => f.key), ...(c.flaggedFlips ? ['(flagged)'] : [])];
  assert.equal(c.flips.length + c.flaggedFlips, 4, flipped.join(', '));
  assert.ok(c.flips.every((f) => /^cards-access-\d+\|selector-only\|/.test(f.key)));
});
