// The plan interpreter on one card condition of each layer, in Chromium. The plans are built here by
// the test, from the instruction's words; they are not model output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { runPilotTrace } from '../../../pipeline/pilot/condition.ts';
import type { Plan } from '../../../pipeline/pilot/plan.ts';
import type { LayersTask } from '../../../core/layers.ts';

const tasks = generateLayersTasks();
const byId = (id: string) => tasks.find((t) => t.condition_id === id)!;

/**
 * a plan that does what the instruction says, looks once for "Saved" and goes on either way (built by
 * the test). Waiting for the page's answer keeps the outcome independent of the machine's speed: the
 * save has reached the server before the plan returns, and no retry or reload repairs anything.
 */
const plainPlan = (t: LayersTask): Plan => ({
  steps: [
    { action: 'select', scope: t.target.key, label: 'Mode', option: t.target.value as string },
    { action: 'click', scope: t.target.key, button: 'Save change' },
    { action: 'check_text', scope: t.target.key, text: 'Saved', timeout_ms: 2000, on_fail: 'continue' },
    { action: 'stop', done: true },
  ],
});

/** a plan that waits for its card, checks the visible result and the reloaded summary, with bounded retries (built by the test) */
const checkingPlan = (t: LayersTask): Plan => ({
  steps: [
    { action: 'check_text', text: t.target.key, timeout_ms: 3000, on_fail: 'stop' },
    { action: 'select', scope: t.target.key, label: 'Mode', option: t.target.value as string },
    { action: 'click', scope: t.target.key, button: 'Save change' },
    { action: 'check_text', scope: t.target.key, text: 'Saved', timeout_ms: 800, on_fail: 'retry', retry_from: 2, max_retries: 3 },
    { action: 'wait', ms: 250 },
    { action: 'reload' },
    { action: 'read_summary', scope: t.target.key, expect: t.target.value as string, timeout_ms: 300, on_fail: 'retry', retry_from: 1, max_retries: 4 },
    { action: 'stop', done: true },
  ],
});

test('the interpreter on one card condition of each layer: the plain plan fails where the fault bites, the checking plan recovers where it can', async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  const expectPlain: Record<string, { id: string; vts: boolean; as: boolean }> = {
    baseline: { id: 'cards-baseline-01', vts: true, as: true },
    access: { id: 'cards-access-01', vts: true, as: true }, // a select waits for its control, as a user's hand would
    perception: { id: 'cards-perception-01', vts: true, as: true }, // the scope names the target exactly; the decoy is "<name> staging" …
    action: { id: 'cards-action-01', vts: false, as: false }, // the one click is swallowed: nothing shows, nothing is saved
    state: { id: 'cards-state-03', vts: false, as: true }, // "Saved" shows at once; the commit lands 700 ms after the save
    verification: { id: 'cards-verification-01', vts: false, as: true }, // "Saved" shows; one save is not enough
  };
  for (const [layer, expected] of Object.entries(expectPlain)) {
    const task = byId(expected.id);
    assert.equal(task.layer, layer);
    const plain = await runPilotTrace({ browser, server, task, plan: plainPlan(task) });
    assert.equal(plain.error, null, `${layer}: ${plain.error}`);
    assert.equal(plain.vts, expected.vts, `${layer}, plain plan: VTS`);
    assert.equal(plain.apparent_success, expected.as, `${layer}, plain plan: AS`);
    assert.equal(plain.false_completion, plain.apparent_success && !plain.vts);
    assert.deepEqual(plain.claim, { done: true }, 'the plan\'s stop step claims done');
    assert.equal(plain.steps, 4);
    assert.equal(plain.actions, 2);
    assert.deepEqual(plain.executed.map((s) => s.action), ['select', 'click', 'check_text', 'stop']);
    assert.equal(plain.executed[2]!.ok, expected.as, 'the look for "Saved" is recorded as it went');

    const checking = await runPilotTrace({ browser, server, task, plan: checkingPlan(task) });
    assert.equal(checking.error, null, `${layer}: ${checking.error}`);
    assert.equal(checking.vts, true, `${layer}, checking plan: the summary check and its retries reach the target`);
    assert.equal(checking.apparent_success, true, `${layer}, checking plan: it waited for "Saved"`);
    assert.equal(checking.claim?.done, true);
    assert.ok(checking.steps >= 7, `${layer}: ${checking.steps} steps`);
    assert.ok(checking.executed.every((s) => s.ms >= 0 && s.t_ms >= 0));
    if (layer === 'baseline') assert.equal(checking.retries, 0);
    if (layer === 'action' || layer === 'verification') assert.ok((checking.retries ?? 0) >= 1, `${layer}: it had to retry`);
  }
});

test('a check that does not hold stops with a claim of not done; a missing control ends with an error and no claim', async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  const task = byId('cards-verification-01');
  const stopping: Plan = {
    steps: [
      { action: 'select', scope: task.target.key, label: 'Mode', option: task.target.value as string },
      { action: 'click', scope: task.target.key, button: 'Save change' },
      { action: 'reload' },
      { action: 'read_summary', scope: task.target.key, expect: task.target.value as string, timeout_ms: 200, on_fail: 'stop' },
      { action: 'stop', done: true },
    ],
  };
  const stopped = await runPilotTrace({ browser, server, task, plan: stopping });
  assert.equal(stopped.claim?.done, false);
  assert.equal(stopped.vts, false);
  assert.equal(stopped.executed.at(-1)?.ok, false);
  assert.match(stopped.executed.at(-1)?.note ?? '', /summary read/);

  const missing: Plan = { steps: [{ action: 'click', scope: 'No such project', button: 'Save change' }, { action: 'stop', done: true }] };
  const failed = await runPilotTrace({ browser, server, task: byId('cards-baseline-01'), plan: missing });
  assert.equal(failed.claim, null);
  assert.match(failed.error ?? '', /^step 0 \(click\)/);
});
