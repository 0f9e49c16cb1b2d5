// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { generateLayersTasks, DEFAULT_SEED } from '../../../pipeline/layers/generate.ts';
import { toLine } from '../../../core/jsonl.ts';
import { validate } from '../../../core/validate.ts';
import { codeRoot } from '../../../core/paths.ts';
import { layers } from '../../../core/layers.ts';
import { policyView } from '../../../pipeline/layers/policies/policy.ts';
import { layersApps } from '../../../fixtures/layers/index.ts';
import type { LayersTask } from '../../../core/layers.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';

const text = (seed?: string) => generateLayersTasks(seed).map(toLine).join('');

test('the generator is deterministic: the same seed gives the same bytes, another seed others', () => {
  assert.equal(text(), text());
  assert.notEqual(text(), text('another-seed'));
  assert.equal(text(DEFAULT_SEED), fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8'), 'the committed task file is a fresh generation');
});

test('288 conditions: 144 cards, 72 profile, 72 modal; severities cycle 1–3; all valid and distinct', () => {
  const tasks = generateLayersTasks();
  assert.equal(tasks.length, 288);
  const count = (f: (t: (typeof tasks)[number]) => boolean) => tasks.filter(f).length;
  assert.equal(count((t) => t.template === 'cards'), 144);
  assert.equal(count((t) => t.template === 'profile'), 72);
  assert.equal(count((t) => t.template === 'modal'), 72);
  for (const layer of layers) assert.equal(count((t) => t.template === 'cards' && t.layer === layer), 24);
  assert.equal(new Set(tasks.map((t) => t.condition_id)).size, 288);
  tasks.forEach((t, i) => validate('layers-task', t, { file: 'generated', line: i + 1 }));
  const cardsState = tasks.filter((t) => t.template === 'cards' && t.layer === 'state');
  assert.deepEqual(cardsState.slice(0, 6).map((t) => t.severity), [1, 2, 3, 1, 2, 3]);
  assert.deepEqual(cardsState.slice(0, 3).map((t) => t.faults.commit_delay_ms), [120, 320, 700]);
  for (const t of tasks) {
    const initial = t.entities.find((e) => e.key === t.target.key)!;
    assert.notDeepEqual(initial.value, t.target.value, `${t.condition_id}: the request must change something`);
    assert.equal(t.entities.findIndex((e) => e.key === t.target.key), t.faults.decoys, `${t.condition_id}: decoys come before the target`);
  }
});

test('a policy cannot see the fault label: its view has no layer, severity, faults or id', () => {
  for (const task of generateLayersTasks()) {
    const view = policyView(task);
    assert.deepEqual(Object.keys(view).sort(), ['instruction', 'target', 'template']);
    const serialized = JSON.stringify(view);
    for (const hidden of [task.condition_id, `"${task.layer}"`, 'severity', 'faults', 'commit_delay', 'saves_required']) {
      assert.ok(!serialized.includes(hidden), `${task.condition_id}: the policy view leaks ${hidden}`);
    }
  }
});

test('the page carries behaviour, never the label: it equals a baseline page byte for byte (but for its load id)', async (t) => {
  const server = await startFixtureServer();
  t.after(() => server.close());
  const page = async (task: LayersTask) => {
    server.load(layersApps[task.template](task));
    const html = await (await fetch(`${server.origin}/`)).text();
    // the page holds no fault parameter at all (the server keeps them); only its random load id differs
    return html.replace(/data-load="[0-9a-f]+"/, 'data-load="LOAD"');
  };
  for (const task of generateLayersTasks().filter((x) => x.layer !== 'baseline' && x.condition_id.endsWith('-01'))) {
    const unlabelled: LayersTask = {
      ...task,
      condition_id: `${task.template}-baseline-99`,
      layer: 'baseline',
      severity: 0,
      faults: { reveal_after_ms: 0, decoys: task.faults.decoys, swallow_clicks: 0, commit_delay_ms: 0, saves_required: 1 },
    };
    assert.equal(await page(task), await page(unlabelled), `${task.condition_id}: the page differs from an unlabelled one`);
  }
});
