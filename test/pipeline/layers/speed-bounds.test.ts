// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The speed rule on rows without moments (every row before amendment 7): what a row's own fields
// decide and what they leave open. Rows built by hand; the conditions are the generated ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { speedVerdictOfRow, type RowFields } from '../../../pipeline/layers/speed-bounds.ts';

const tasks = generateLayersTasks();
const task = (id: string) => tasks.find((t) => t.condition_id === id)!;
const row = (o: Partial<RowFields>): RowFields => ({ arm: 'main', policy: 'semantic-recovery', horizon_ms: 100, apparent_success: true, vts: true, elapsed_ms: 400, timing_margin_ms: null, actions: 2, retries: 0, error: null, ...o });

test('a late-return semantic-recovery State success is decided flagged from its margin; a verification-aware one is decided not', () => {
  // Firefox cards-state-16 as registered: margin 53.8 ms, so the return came 173.8 ms after the save
  const late = speedVerdictOfRow(row({ timing_margin_ms: 53.8, elapsed_ms: 645.2 }), task('cards-state-16'));
  assert.equal(late.status, 'flagged');
  assert.match(late.why, /173\.8 ms after the save/);
  assert.equal(speedVerdictOfRow(row({ policy: 'verification-aware', timing_margin_ms: 293.1, elapsed_ms: 759.5 }), task('cards-state-16')).status, 'not');
  // a return 700 ms after a 120 ms commit's save: ×0.5 still returns after it
  assert.equal(speedVerdictOfRow(row({ timing_margin_ms: 580, elapsed_ms: 900 }), task('cards-state-16')).status, 'not');
});

test('what the row does not keep stays undecided, unless the elapsed time bounds it out', () => {
  const atSave = row({ vts: false, timing_margin_ms: -20, elapsed_ms: 140 });
  assert.equal(speedVerdictOfRow(atSave, task('cards-state-01')).status, 'undecided', 'scored at the save: the return after it is unknown');
  assert.equal(speedVerdictOfRow({ ...atSave, elapsed_ms: 25 }, task('cards-state-01')).status, 'not', '×4 of the whole 25 ms trace stays before the 120 ms commit');
  const looked = row({ policy: 'selector-only', apparent_success: false, vts: false, actions: 0, elapsed_ms: 12 });
  assert.equal(speedVerdictOfRow(looked, task('cards-access-01')).status, 'not', '×4 of 12 ms still looks before the 70 ms surface');
  assert.equal(speedVerdictOfRow({ ...looked, elapsed_ms: 40 }, task('cards-access-01')).status, 'undecided');
  assert.equal(speedVerdictOfRow(row({ arm: 'horizon', policy: 'single-action', horizon_ms: 50 }), task('cards-state-01')).status, 'undecided', "the horizon's AS needs the success's moment");
});
