// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The plan schema (schemas/plan.schema.json, through ajv) and the rules beyond it; the sample draw;
// the prompts read from the frozen prereg.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planProblems } from '../../../pipeline/pilot/plan.ts';
import { drawPilotSample, PILOT_SEED } from '../../../pipeline/pilot/sample.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { planningMessages, readPrompts } from '../../../pipeline/pilot/prompts.ts';

const valid = {
  note: 'a plan written by the test',
  steps: [
    { action: 'navigate', path: '/' },
    { action: 'wait', ms: 200 },
    { action: 'check_text', text: 'Atlas', timeout_ms: 3000, on_fail: 'stop' },
    { action: 'select', scope: 'Atlas', label: 'Mode', option: 'Quiet' },
    { action: 'fill', label: 'Display name', value: 'Ada Reyes' },
    { action: 'click', scope: 'Atlas', button: 'Save change' },
    { action: 'check_text', scope: 'Atlas', text: 'Saved', timeout_ms: 500, on_fail: 'retry', retry_from: 5, max_retries: 2 },
    { action: 'reload' },
    { action: 'read_summary', scope: 'Atlas', expect: 'Quiet', timeout_ms: 0, on_fail: 'continue' },
    { action: 'stop', done: true, message: 'saved' },
  ],
};

const withStep = (step: unknown, at = 1) => ({ steps: [...valid.steps.slice(0, at), step, ...valid.steps.slice(at)] });

test('the schema accepts a plan that uses every action within its bounds', () => {
  assert.deepEqual(planProblems(valid), []);
  assert.deepEqual(planProblems({ steps: [{ action: 'stop', done: false }] }), []);
});

test('the schema rejects an unknown action, a missing field, a bound crossed, an extra field', () => {
  assert.match(planProblems(withStep({ action: 'scroll', px: 300 })).join(), /steps\[1\]\.action "scroll" is not an action/);
  assert.match(planProblems(withStep({ action: 'click', scope: 'Atlas' })).join(), /steps\[1\]\.button is missing/);
  assert.match(planProblems(withStep({ action: 'wait', ms: 5001 })).join(), /steps\[1\]\.ms must be <= 5000/);
  assert.match(planProblems(withStep({ action: 'wait', ms: -1 })).join(), /steps\[1\]\.ms must be >= 0/);
  assert.match(planProblems(withStep({ action: 'check_text', text: 'x', timeout_ms: 100, on_fail: 'retry', retry_from: 0, max_retries: 6 })).join(), /max_retries must be <= 5/);
  assert.match(planProblems(withStep({ action: 'navigate', path: 'https://elsewhere.example/' })).join(), /steps\[1\]\.path must match pattern/);
  assert.match(planProblems(withStep({ action: 'navigate', path: '//elsewhere.example/' })).join(), /steps\[1\]\.path must match pattern/);
  assert.match(planProblems(withStep({ action: 'reload', force: true })).join(), /steps\[1\]\.force is not allowed here/);
  assert.match(planProblems({ ...valid, layer: 'state' }).join(), /layer is not allowed here/);
  assert.match(planProblems({ steps: [] }).join(), /fewer than 1/);
  assert.match(planProblems({ steps: Array.from({ length: 41 }, () => ({ action: 'reload' })) }).join(), /more than 40/);
  assert.match(planProblems({}).join(), /steps is missing/);
  assert.match(planProblems([valid]).join(), /must be a JSON object/);
});

test('a retry must name an earlier step, and only a retry names one', () => {
  assert.match(planProblems(withStep({ action: 'check_text', text: 'x', timeout_ms: 1, on_fail: 'retry', retry_from: 1 })).join(), /retry_from must name an earlier step/);
  assert.match(planProblems(withStep({ action: 'check_text', text: 'x', timeout_ms: 1, on_fail: 'retry' })).join(), /retry_from is missing/);
  assert.match(planProblems(withStep({ action: 'read_summary', expect: 'x', timeout_ms: 1, on_fail: 'stop', retry_from: 0 })).join(), /only when on_fail is retry/);
});

test('the sample: five card conditions per layer, the same for the same seed, another for another seed', () => {
  const tasks = generateLayersTasks();
  const sample = drawPilotSample(tasks);
  assert.equal(sample.length, 30);
  for (const layer of ['baseline', 'access', 'perception', 'action', 'state', 'verification']) {
    assert.equal(sample.filter((s) => s.layer === layer).length, 5, layer);
  }
  assert.ok(sample.every((s) => s.template === 'cards' && s.seed === PILOT_SEED));
  assert.equal(new Set(sample.map((s) => s.condition_id)).size, 30);
  assert.deepEqual(drawPilotSample(tasks), sample);
  assert.notDeepEqual(drawPilotSample(tasks, 'another seed').map((s) => s.condition_id), sample.map((s) => s.condition_id));
});

test('the prompts come from the frozen prereg; the messages carry the task and the page only', () => {
  const p = readPrompts();
  assert.notEqual(p.prompts.ordinary, p.prompts.reliability);
  assert.match(p.prompts.reliability, /recovery/);
  assert.doesNotMatch(p.prompts.ordinary, /recovery/);
  const task = generateLayersTasks().find((t) => t.condition_id === 'cards-state-02')!;
  const messages = planningMessages(p, 'reliability', task.instruction, '- heading "Project settings"');
  assert.equal(messages.length, 2);
  assert.ok(messages[1]!.content.includes(task.instruction));
  assert.doesNotMatch(JSON.stringify(messages), /cards-state|commit_delay|severity/);
});
