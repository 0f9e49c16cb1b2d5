// The percentile the verifier's overhead is reported with: nearest rank, as the bench states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile } from '../../../pipeline/bench/verifier-overhead.ts';

test('percentiles by nearest rank', () => {
  const values = Array.from({ length: 20 }, (_, i) => 20 - i); // 20 … 1
  assert.equal(percentile(values, 50), 10);
  assert.equal(percentile(values, 95), 19);
  assert.equal(percentile(values, 100), 20);
  assert.equal(percentile([7], 95), 7);
  assert.equal(percentile([], 50), null);
});
