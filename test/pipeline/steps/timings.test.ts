// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// rstackbench timings: wall time, rows' own time, concurrency, pauses and overlaps, from the rows alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markOverlaps, runTiming } from '../../../pipeline/steps/timings.ts';
import { formatDuration } from '../../../core/log.ts';

const row = (startIso: string, elapsed: number) => ({ study: 'layers', arm: 'main', run_id: 'r', browser: { name: 'chromium' }, started_at: startIso, elapsed_ms: elapsed });

test('one worker, a pause: wall time from first start to last end, the pause named, one row at a time', () => {
  const t = runTiming('data/raw/layers/main/r.jsonl', [
    row('2026-01-01T00:00:00.000Z', 1000),
    row('2026-01-01T00:00:02.000Z', 1000),
    row('2026-01-01T00:10:00.000Z', 500), // resumed ten minutes later
  ]);
  assert.equal(t.rows, 3);
  assert.equal(t.lastEnd - t.firstStart, 600_500);
  assert.equal(t.rowsMs, 2500);
  assert.equal(t.mostAtOnce, 1);
  assert.equal(t.longestPauseMs, 597_000);
});

test('rows out of order and in flight together: two workers are seen as two at once', () => {
  const t = runTiming('x', [row('2026-01-01T00:00:01.000Z', 2000), row('2026-01-01T00:00:00.000Z', 2000), row('2026-01-01T00:00:03.000Z', 1000)]);
  assert.equal(t.mostAtOnce, 2);
  assert.equal(t.lastEnd - t.firstStart, 4000);
  assert.equal(t.longestPauseMs, 0);
});

test('runs whose spans overlap name each other; a run that ends before another starts does not', () => {
  const a = runTiming('data/raw/a.jsonl', [row('2026-01-01T00:00:00.000Z', 10_000)]);
  const b = runTiming('data/raw/b.jsonl', [row('2026-01-01T00:00:05.000Z', 10_000)]);
  const c = runTiming('data/raw/c.jsonl', [row('2026-01-01T00:00:15.000Z', 1_000)]);
  markOverlaps([a, b, c]);
  assert.deepEqual(a.overlaps, ['b']);
  assert.deepEqual(b.overlaps, ['a']);
  assert.deepEqual(c.overlaps, []);
});

test('durations read as a person would say them', () => {
  assert.equal(formatDuration(59_400), '59 s');
  assert.equal(formatDuration(985_000), '16 min 25 s');
  assert.equal(formatDuration(3_725_000), '1 h 02 min');
});
