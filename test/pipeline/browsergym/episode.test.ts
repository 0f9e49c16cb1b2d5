// shares the machine: no browser; small Node processes speaking the control protocol, and timeouts far above what they take
// The episode's control protocol (pipeline/browsergym/episode.ts, control.ts) with a stand-in for
// the episode's process (scripts/episode-process.mjs): the stage opens only once the process's task
// has set up and opened the condition it was made for, in the run's browser; the claim is what the
// process sent, answered with the score; before its page is open a failure fails the attempt, after
// it a failure is an error, never a claim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersTask } from '../../../core/layers.ts';
import type { LayersOutcome } from '../../../pipeline/layers/condition.ts';
import { startControlServer } from '../../../pipeline/browsergym/control.ts';
import { browsergymEpisode } from '../../../pipeline/browsergym/episode.ts';

const script = path.join(import.meta.dirname, 'scripts', 'episode-process.mjs');
const task = readJsonl<LayersTask>(path.join(codeRoot, 'data/tasks/layers.jsonl')).find((t) => t.condition_id === 'cards-baseline-01')!;
const version = '1.2.3.4';

async function episodeWith(behaviour: string, timeoutMs = 20_000) {
  const control = await startControlServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-episode-'));
  const logFile = path.join(dir, 'episode.log');
  const episode = browsergymEpisode({
    control, task, command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)} ${behaviour} ${version}`, cwd: dir, timeoutMs,
    logFile, expDir: path.join(dir, 'exp'), tasksFile: path.join(codeRoot, 'data/tasks/layers.jsonl'), browserVersion: version,
  });
  const seen = { success: [] as number[], revealed: [] as number[] };
  const moments = { successShown: (t: number) => seen.success.push(t), revealed: (t: number) => seen.revealed.push(t) };
  const cleanup = async () => { await control.stop(); fs.rmSync(dir, { recursive: true, force: true }); };
  return { episode, control, logFile, seen, moments, cleanup };
}

const scored = { vts: true, apparent_success: true } as LayersOutcome;

test('an episode: setup and opened open the stage, the watch reports, the claim is the agent\'s return, answered with the score', async (t) => {
  const e = await episodeWith('ok');
  t.after(e.cleanup);
  const opened = await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
  assert.equal(opened.startUrl, 'http://127.0.0.1:9/', 'the page the task opened');
  const result = await e.episode.agent.run({ task: { instruction: task.instruction, start_url: opened.startUrl } });
  assert.deepEqual(result, { claim: { done: true, message: 'saved' }, error: null, actions: 3 });
  assert.equal(e.seen.success.length, 1, 'the success moment reached the trace');
  const finished = await e.episode.finish(scored);
  assert.deepEqual(finished, { error: null, account: { ended: 'claim', steps: 3, max_steps: 10, reward: 1, terminated: true, truncated: false } }, 'the loop\'s own account, its reward beside VTS');
  const lines = fs.readFileSync(e.logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const setup = lines.find((l) => l.setup).setup.body;
  assert.equal(setup.instruction, task.instruction);
  assert.equal(setup.surface_held, false);
  assert.match(setup.watch, /MutationObserver/, 'the project\'s page watch');
  assert.deepEqual(Object.keys(setup.bindings).sort(), ['revealed', 'success_shown']);
  assert.deepEqual(lines.find((l) => l.end).end, { status: 200, body: { vts: true, apparent_success: true, false_completion: false } }, 'the reward the task gets is VTS');
});

test('a task that sets up another condition is refused, and the attempt fails', async (t) => {
  const e = await episodeWith('wrong-task');
  t.after(e.cleanup);
  await assert.rejects(e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments }), /this episode is rstackbench\.cards-baseline-01; the task set up "rstackbench\.cards-baseline-02"/);
  assert.deepEqual(await e.episode.finish(null), { error: null, account: null });
});

test('an episode cut at its step limit (issue 50 item 4): the claim is not done, and the account says step_limit, with the limit', async (t) => {
  const e = await episodeWith('step-limit');
  t.after(e.cleanup);
  await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
  const result = await e.episode.agent.run({ task: { instruction: task.instruction, start_url: '' } });
  assert.deepEqual(result.claim, { done: false, message: 'no message to the user: the episode ended at its step limit (10 steps)' });
  const finished = await e.episode.finish({ vts: false, apparent_success: false } as LayersOutcome);
  assert.deepEqual(finished, { error: null, account: { ended: 'step_limit', steps: 10, max_steps: 10, reward: 0, terminated: false, truncated: true } });
});

test('a process that ends before its page is open is the row\'s error (issue 50 item 2): no claim, naming its exit and its log; the attempt stands', async (t) => {
  const e = await episodeWith('exit-early');
  t.after(e.cleanup);
  await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
  const result = await e.episode.agent.run({ task: { instruction: task.instruction, start_url: '' } });
  assert.equal(result.claim, null);
  assert.match(result.error!, /^crash: the episode's process exited with code 3 before its start page was open \(its log: /);
  await e.episode.finish(null);
});

test('after the page is open: a crash, a timeout, a failure after the claim are errors, never claims', async (t) => {
  for (const [behaviour, timeoutMs, error] of [['crash-after-open', 20_000, /^crash: .*code 4 before the agent's claim/], ['hang', 1500, /^timeout: no claim within 1500 ms/]] as const) {
    const e = await episodeWith(behaviour, timeoutMs);
    t.after(e.cleanup);
    await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
    const result = await e.episode.agent.run({ task: { instruction: task.instruction, start_url: '' } });
    assert.equal(result.claim, null, behaviour);
    assert.match(result.error!, error);
    await e.episode.finish(scored);
  }
  const e = await episodeWith('fail-after-claim');
  t.after(e.cleanup);
  await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
  assert.deepEqual((await e.episode.agent.run({ task: { instruction: '', start_url: '' } })).claim, { done: true, message: 'saved' });
  assert.match((await e.episode.finish(scored)).error!, /exited with 5 after the episode ended: the agent or its loop raised, so no claim stands/);
});

test('the control endpoint: an unknown episode is 404, a body that is not JSON 400, a malformed claim 400', async (t) => {
  const e = await episodeWith('hang', 20_000);
  t.after(e.cleanup);
  assert.equal((await fetch(`${e.control.origin}/episode/${'0'.repeat(32)}/setup`, { method: 'POST', body: '{}' })).status, 404);
  await e.episode.stage.open('http://127.0.0.1:9/', { surfaceHeld: false, moments: e.moments });
  // the episode's URL is in its process's environment only; the stand-in prints it
  const { control: url } = JSON.parse(fs.readFileSync(e.logFile, 'utf8').split('\n').find((l) => l.includes('"control"'))!);
  assert.equal((await fetch(`${url}/end`, { method: 'POST', body: 'not json' })).status, 400);
  assert.equal((await fetch(`${url}/end`, { method: 'POST', body: JSON.stringify({ claim: { done: 'yes' } }) })).status, 400);
  assert.equal((await fetch(`${url}/end`, { method: 'POST', body: JSON.stringify({ claim: { done: true } }) })).status, 400, 'an end that does not say how the episode ended');
  assert.equal((await fetch(`${url}/result`, { method: 'POST', body: JSON.stringify({ reward: 1 }) })).status, 409, 'a result before the claim');
  assert.equal((await fetch(`${url}/setup`, { method: 'POST', body: '{}' })).status, 409, 'setup once');
  await e.episode.finish(null);
  assert.equal((await fetch(`${url}/end`, { method: 'POST', body: '{}' })).status, 404, 'a finished episode answers nothing');
});
