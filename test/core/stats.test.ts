// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wilson, mcnemarExact, median } from '../../core/stats.ts';

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} is not within ${tol} of ${expected}`);

test('Wilson 95% intervals match the published reference values', () => {
  close(wilson(0, 128).high, 0.029, 0.0005, '0/128 upper');
  assert.equal(wilson(0, 128).low, 0);
  close(wilson(0, 192).high, 0.0196, 0.0001, '0/192 upper');
  close(wilson(16, 30).low, 0.361, 0.0005, '16/30 low');
  close(wilson(16, 30).high, 0.698, 0.0005, '16/30 high');
  close(wilson(21, 30).low, 0.521, 0.0005, '21/30 low');
  close(wilson(21, 30).high, 0.833, 0.0005, '21/30 high');
});

test('Wilson interval edge cases', () => {
  assert.deepEqual(wilson(0, 0), { low: 0, high: 1 });
  assert.equal(wilson(10, 10).high, 1);
  assert.throws(() => wilson(3, 2), RangeError);
});

test('exact McNemar: 5 discordant pairs against 0 gives p = 0.0625', () => {
  close(mcnemarExact(5, 0), 0.0625, 1e-12, '5 vs 0');
  close(mcnemarExact(0, 5), 0.0625, 1e-12, '0 vs 5');
  assert.equal(mcnemarExact(0, 0), 1);
  assert.equal(mcnemarExact(3, 3), 1);
  close(mcnemarExact(1, 4), 0.375, 1e-12, '1 vs 4');
  assert.ok(mcnemarExact(96, 0) < 1e-20, 'a large one-sided split is tiny');
});

test('median', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  assert.equal(median([]), null);
});
