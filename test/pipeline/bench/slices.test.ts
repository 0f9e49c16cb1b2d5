// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The bench's slices: every stratum represented, the same seed the same units, in plan order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blocksOf, stratifiedSample } from '../../../pipeline/bench/slices.ts';
import { unitsFor } from '../../../pipeline/layers/arms.ts';

const stratum = (u: ReturnType<typeof unitsFor>[number]) => `${u.task.template}|${u.task.layer}|${u.task.severity}|${u.policy}`;

test('a third of the main arm: two units of each of the 144 strata, seeded, in plan order', () => {
  const units = unitsFor('main');
  const third = stratifiedSample(units, stratum, 288, 'bench/1');
  assert.equal(third.length, 288);
  const counts = new Map<string, number>();
  for (const u of third) counts.set(stratum(u), (counts.get(stratum(u)) ?? 0) + 1);
  assert.equal(counts.size, 144);
  assert.ok([...counts.values()].every((n) => n === 2));
  assert.deepEqual(stratifiedSample(units, stratum, 288, 'bench/1'), third, 'the same seed draws the same units');
  assert.notDeepEqual(stratifiedSample(units, stratum, 288, 'bench/2'), third, 'another seed draws others');
  const order = third.map((u) => units.indexOf(u));
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

test('a size that does not divide: the extra units go to distinct strata', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ i, k: `s${i % 20}` }));
  const picked = stratifiedSample(items, (x) => x.k, 24, 'x');
  assert.equal(picked.length, 24);
  assert.equal(new Set(picked.map((x) => x.k)).size, 20);
});

test('blocks interleave and cover every unit once', () => {
  const blocks = blocksOf([1, 2, 3, 4, 5, 6, 7], 3);
  assert.deepEqual(blocks, [[1, 4, 7], [2, 5], [3, 6]]);
});
