// Outside agents end to end in real Firefox ESR: the harness starts firefox-esr itself, opens and
// watches the start page through its observer extension in a BiDi session it then ends, and the
// agent makes its own WebDriver BiDi session. Scored by the server's persisted state; the page's
// success indication comes from the extension (AS true below proves it reports).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';
import { processAgent } from '../../../pipeline/agents/process-agent.ts';
import { runAgentTrace } from '../../../pipeline/agents/agent-trace.ts';

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
const byId = (id: string) => (id === lateState.condition_id ? lateState : tasks.find((t) => t.condition_id === id)!);
const scripts = path.join(import.meta.dirname, 'scripts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-agent-firefox-'));
const scoring = { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const;
/** a script of scripts/: .mjs with node, .ts with node --import tsx */
const agent = (script: string, timeoutMs = 30_000) =>
  processAgent({
    command: [process.execPath, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), path.join(scripts, script)].map((a) => JSON.stringify(a)).join(' '),
    cwd: codeRoot,
    timeoutMs,
    stderrPath: () => path.join(dir, `${script}.stderr`),
  });
const run = (id: string, script: string, timeoutMs?: number) => runAgentTrace({ browserName: 'firefox', server, task: byId(id), agent: agent(script, timeoutMs), scoring });
const stderrOf = (script: string) => (fs.existsSync(path.join(dir, `${script}.stderr`)) ? fs.readFileSync(path.join(dir, `${script}.stderr`), 'utf8').slice(-1500) : '');
let server: FixtureServer;
before(async () => { server = await startFixtureServer(); });
after(() => server.close());

test('Firefox: claiming done at once, touching nothing, is VTS false and a false completion', async () => {
  for (const id of ['cards-baseline-01', 'profile-access-03', 'modal-state-02']) {
    const out = await run(id, 'claims-done.mjs');
    assert.equal(out.browser.name, 'firefox');
    assert.deepEqual(out.claim, { done: true });
    assert.equal(out.error, null);
    assert.equal(out.vts, false, `${id}: nothing was saved`);
    assert.equal(out.apparent_success, false, `${id}: nothing showed success`);
    assert.equal(out.false_completion, true, `${id}: claimed done, not done`);
  }
});

test('Firefox: an agent that clicks through over its own BiDi session scores VTS and AS true; on a State condition AS true and VTS false', async () => {
  // a generous bound on the agent (tsx's start and a BiDi session on a loaded machine): a limit, not a measure
  const baseline = await run('cards-baseline-01', 'bidi-clicks-through.ts', 120_000);
  assert.equal(baseline.error, null, `${baseline.error}\n${stderrOf('bidi-clicks-through.ts')}`);
  assert.deepEqual(baseline.claim, { done: true });
  assert.equal(baseline.actions, 2, 'the actions it reports');
  assert.equal(baseline.vts, true, `the server holds ${JSON.stringify(baseline.persisted.value)}`);
  assert.equal(baseline.apparent_success, true, 'the observer extension reported the Saved indication');
  assert.equal(baseline.false_completion, false);
  const state = await run(lateState.condition_id, 'bidi-clicks-through.ts', 120_000);
  assert.equal(state.error, null, `${state.error}\n${stderrOf('bidi-clicks-through.ts')}`);
  assert.deepEqual(state.claim, { done: true });
  assert.equal(state.apparent_success, true, 'the page said Saved');
  assert.equal(state.vts, false, 'the server commits 120 s after the save');
  assert.equal(state.false_completion, true);
});

test('Firefox: the page sees nothing of the observer, and the agent finds the start page in the one tab', async () => {
  const out = await run('cards-baseline-02', 'bidi-looks.ts');
  assert.equal(out.error, null, `${out.error}\n${stderrOf('bidi-looks.ts')}`);
  const looked = JSON.parse(out.claim!.message!) as { tabs: number; url: string; page: { browser: string; chrome: string; globals: string[]; scripts: string[]; width: number; height: number } };
  assert.equal(looked.tabs, 1);
  assert.equal(looked.url, `${server.origin}/`);
  assert.equal(looked.page.browser, 'undefined', 'no extension API in the page');
  assert.equal(looked.page.chrome, 'undefined');
  assert.deepEqual(looked.page.globals, [], 'no harness global in the page');
  assert.ok(looked.page.scripts.every((s) => s === 'inline' || s.startsWith(server.origin)), `only the app's scripts: ${looked.page.scripts}`);
  assert.deepEqual([looked.page.width, looked.page.height], [900, 900], 'the viewport the harness set outlives its session');
});

test('Firefox: a garbage last line is an error row, and the next condition runs', async () => {
  const garbage = await run('cards-baseline-02', 'prints-garbage.mjs');
  assert.equal(garbage.claim, null);
  assert.match(garbage.error!, /^no claim/);
  assert.equal(garbage.false_completion, false, 'no claim, no false completion');
  const next = await run('cards-baseline-02', 'bidi-clicks-through.ts');
  assert.equal(next.error, null, `${next.error}\n${stderrOf('bidi-clicks-through.ts')}`);
  assert.equal(next.vts, true, 'the run goes on: the next condition is scored');
});
