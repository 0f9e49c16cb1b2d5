// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The stratified slice an agent prereg may register: k per template and layer, seeded, stable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawSlice } from '../../../pipeline/agents/agent-slice.ts';
import { readLayersTasks } from '../../../pipeline/layers/read-tasks.ts';
import { layers } from '../../../core/layers.ts';

test('a slice holds k conditions of each template in every layer, the same for the same seed, another for another', () => {
  const tasks = readLayersTasks();
  const k = { cards: 2, profile: 1, modal: 1 };
  const ids = drawSlice(tasks, 'seed-a', k);
  assert.equal(ids.length, layers.length * 4);
  assert.equal(new Set(ids).size, ids.length, 'no condition twice');
  const byId = new Map(tasks.map((t) => [t.condition_id, t]));
  for (const layer of layers) {
    for (const [template, n] of Object.entries(k)) {
      assert.equal(ids.filter((id) => byId.get(id)!.layer === layer && byId.get(id)!.template === template).length, n, `${layer} ${template}`);
    }
  }
  assert.deepEqual(drawSlice(tasks, 'seed-a', k), ids);
  assert.notDeepEqual(drawSlice(tasks, 'seed-b', k), ids);
  assert.throws(() => drawSlice(tasks, 'seed-a', { cards: 99, profile: 0, modal: 0 }), /only \d+ cards conditions of layer baseline/);
});
