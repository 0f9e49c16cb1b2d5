// Outside agents end to end in real Chromium: a fresh browser per condition, the agent as a
// process over CDP, scored by the server's persisted state — never by the claim.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';
import { processAgent } from '../../../pipeline/agents/process-agent.ts';
import { runAgentTrace } from '../../../pipeline/agents/agent-trace.ts';
import { layers } from '../../../core/layers.ts';

const tasks = generateLayersTasks();
/**
 * A State condition whose commit comes long after the save: the claim is false whatever the
 * machine's speed. With the generated 700 ms an agent slowed down between its save and its return
 * (a loaded CI machine) would return after the commit, and the test would measure the machine.
 */
const lateState = (() => {
  const task = tasks.find((t) => t.condition_id === 'cards-state-03')!;
  return { ...task, condition_id: 'cards-state-03-late', faults: { ...task.faults, commit_delay_ms: 120_000 } };
})();
const scripts = path.join(import.meta.dirname, 'scripts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-agent-trace-'));
const scoring = { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const;
const agent = (script: string, timeoutMs = 30_000) =>
  processAgent({ command: `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(scripts, script))}`, timeoutMs, stderrPath: () => path.join(dir, `${script}.stderr`) });
const stderrOf = (script: string) => (fs.existsSync(path.join(dir, `${script}.stderr`)) ? fs.readFileSync(path.join(dir, `${script}.stderr`), 'utf8').slice(-1500) : '');
let server: FixtureServer;
before(async () => { server = await startFixtureServer(); });
after(() => server.close());

test('claiming done at once, touching nothing: VTS false and a false completion on every layer', async () => {
  for (const layer of layers) {
    const task = tasks.find((t) => t.condition_id === `cards-${layer}-${layer === 'baseline' ? '01' : '03'}`)!;
    const out = await runAgentTrace({ browserName: 'chromium', server, task, agent: agent('claims-done.mjs'), scoring });
    assert.deepEqual(out.claim, { done: true });
    assert.equal(out.error, null);
    assert.equal(out.vts, false, `${task.condition_id}: nothing was saved`);
    assert.equal(out.apparent_success, false, `${task.condition_id}: nothing showed success`);
    assert.equal(out.false_completion, true, `${task.condition_id}: claimed done, not done`);
    assert.deepEqual(out.persisted.value, task.entities.find((e) => e.key === task.target.key)!.value);
  }
});

test('an agent that clicks through a baseline condition over CDP scores VTS true; on a State condition the claim is false', async () => {
  // a generous bound on the agent (Playwright's start and a CDP connection on a loaded machine): a limit, not a measure
  const baseline = await runAgentTrace({ browserName: 'chromium', server, task: tasks.find((t) => t.condition_id === 'cards-baseline-01')!, agent: agent('clicks-through.mjs', 120_000), scoring });
  assert.equal(baseline.error, null, `${baseline.error}\n${stderrOf('clicks-through.mjs')}`);
  assert.deepEqual(baseline.claim, { done: true });
  assert.equal(baseline.actions, 2, 'the actions it reports');
  assert.equal(baseline.vts, true);
  assert.equal(baseline.apparent_success, true);
  assert.equal(baseline.false_completion, false);
  const state = await runAgentTrace({ browserName: 'chromium', server, task: lateState, agent: agent('clicks-through.mjs', 120_000), scoring });
  assert.equal(state.error, null, `${state.error}\n${stderrOf('clicks-through.mjs')}`);
  assert.deepEqual(state.claim, { done: true });
  assert.equal(state.apparent_success, true, 'the page said Saved');
  assert.equal(state.vts, false, 'the server commits 120 s after the save');
  assert.equal(state.false_completion, true);
});

test('timeout, crash and a garbage last line each give an error row, and the next condition runs', async () => {
  const task = tasks.find((t) => t.condition_id === 'cards-baseline-02')!;
  for (const [script, pattern] of [['never-answers.mjs', /^timeout/], ['crashes.mjs', /^crash/], ['prints-garbage.mjs', /^no claim/]] as const) {
    const out = await runAgentTrace({ browserName: 'chromium', server, task, agent: agent(script, 3000), scoring });
    assert.equal(out.claim, null, script);
    assert.match(out.error!, pattern, script);
    assert.equal(out.false_completion, false, `${script}: no claim, no false completion`);
    assert.equal(out.vts, false);
  }
  const after = await runAgentTrace({ browserName: 'chromium', server, task, agent: agent('clicks-through.mjs'), scoring });
  assert.equal(after.vts, true, 'the run goes on: the next condition is scored');
});
