// The outside-agent runner: a claim on the last line, and every way of not giving one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAgent, parseClaimLine } from '../../../pipeline/agents/process-agent.ts';
import type { AgentSession } from '../../../pipeline/agents/contract.ts';

const scripts = path.join(import.meta.dirname, 'scripts');
const node = (script: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(scripts, script))}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-process-agent-'));
// no browser is needed to run the command: the session's page is never touched by a process agent
const session = {
  task: { instruction: 'In the project "Juniper", set Mode to "Quiet" and save the change.', start_url: 'http://127.0.0.1:9/' },
  page: undefined as unknown as AgentSession['page'],
  endpoints: { cdp_url: 'http://127.0.0.1:9', ws_endpoint: 'ws://127.0.0.1:9/devtools/browser/x' },
} satisfies AgentSession;
const agent = (script: string, timeoutMs = 20_000) => processAgent({ command: node(script), timeoutMs, stderrPath: () => path.join(dir, `${script}.stderr`) });

test('the last line of stdout is the claim', async () => {
  assert.deepEqual(await agent('claims-done.mjs').run(session), { claim: { done: true }, error: null });
});

test('the agent receives the task as a user gives it and the endpoints, nothing of the harness', async () => {
  process.env.RSTACK_ROOT_PROBE = 'harness-only';
  try {
    const result = await agent('reads-task.mjs').run(session);
    assert.equal(result.error, null);
    const seen = JSON.parse(result.claim!.message!);
    assert.deepEqual(seen.task, session.task);
    assert.deepEqual(seen.given, ['RSTACKBENCH_CDP_URL', 'RSTACKBENCH_TASK', 'RSTACKBENCH_WS_ENDPOINT']);
    assert.equal(result.actions, 0, 'what the agent reports it did is kept');
  } finally {
    delete process.env.RSTACK_ROOT_PROBE;
  }
});

test('a timeout kills the agent and every child it started, and gives an error row', async () => {
  const result = await agent('never-answers.mjs', 1500).run(session);
  assert.equal(result.claim, null);
  assert.match(result.error!, /^timeout: no claim within 1500 ms/);
  // the child of the agent is gone too: no process still runs the script's command line
  const alive = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('setTimeout(() => {}, 600000)');
    } catch {
      return false;
    }
  });
  assert.equal(alive, false, 'a child of the timed-out agent is still running');
});

test('a crash is an error even after a claim-like line; stderr is kept', async () => {
  const result = await agent('crashes.mjs').run(session);
  assert.equal(result.claim, null);
  assert.match(result.error!, /^crash: the agent exited with code 3/);
  assert.match(fs.readFileSync(path.join(dir, 'crashes.mjs.stderr'), 'utf8'), /something went wrong/);
});

test('a last line that is not a claim is an error', async () => {
  const result = await agent('prints-garbage.mjs').run(session);
  assert.equal(result.claim, null);
  assert.match(result.error!, /^no claim: the last line of stdout is not JSON: "I think I am done"/);
});

test('claim lines: the schema decides', () => {
  assert.deepEqual(parseClaimLine('x\n{"done": false, "message": "no such project"}\n\n'), { claim: { done: false, message: 'no such project' } });
  assert.match((parseClaimLine('{"done": "yes"}') as { error: string }).error, /not a claim/);
  assert.match((parseClaimLine('{"done": true, "layer": "access"}') as { error: string }).error, /not a claim/);
  assert.match((parseClaimLine('') as { error: string }).error, /printed nothing/);
  assert.match((parseClaimLine('[true]') as { error: string }).error, /not a claim/);
});

test("claim lines in WebArena-Verified's vocabulary: SUCCESS is done, any other status not done; status and usage kept", () => {
  const usage = { input_tokens: 1200, output_tokens: 80, cost_usd: 0.0031 };
  assert.deepEqual(parseClaimLine(JSON.stringify({ task_type: 'mutate', status: 'SUCCESS', retrieved_data: null })), { claim: { done: true, status: 'SUCCESS' } });
  for (const status of ['NOT_FOUND', 'ACTION_NOT_ALLOWED', 'PERMISSION_DENIED', 'DATA_VALIDATION', 'UNKNOWN_ERROR']) {
    assert.deepEqual(parseClaimLine(JSON.stringify({ task_type: 'mutate', status, retrieved_data: null, usage })), { claim: { done: false, status, usage } });
  }
  assert.deepEqual(parseClaimLine(JSON.stringify({ done: true, usage: { output_tokens: 5 } })), { claim: { done: true, usage: { output_tokens: 5 } } }, 'usage beside a done claim');
  assert.deepEqual(parseClaimLine(JSON.stringify({ done: true, status: 'SUCCESS' })), { claim: { done: true, status: 'SUCCESS' } });
  assert.match((parseClaimLine(JSON.stringify({ done: true, status: 'NOT_FOUND' })) as { error: string }).error, /done true and status NOT_FOUND disagree/);
  assert.match((parseClaimLine(JSON.stringify({ task_type: 'mutate', status: 'DONE' })) as { error: string }).error, /not a claim/, 'an unknown status');
  assert.match((parseClaimLine(JSON.stringify({ task_type: 'mutate', retrieved_data: null })) as { error: string }).error, /not a claim/, 'neither done nor status');
  assert.match((parseClaimLine(JSON.stringify({ done: false, usage: { tokens: 3 } })) as { error: string }).error, /not a claim/, 'usage has its three fields only');
  assert.match((parseClaimLine(JSON.stringify({ done: false, usage: { cost_usd: -1 } })) as { error: string }).error, /not a claim/);
});

test('a command that does not exist is a crash', async () => {
  const result = await processAgent({ command: 'rsb-no-such-agent-command', stderrPath: () => path.join(dir, 'missing.stderr') }).run(session);
  assert.equal(result.claim, null);
  assert.match(result.error!, /^crash: the agent exited with code 127/);
});

test('no endpoint to connect to (a browser that gives none): an error, the command is not run', async () => {
  const result = await agent('claims-done.mjs').run({ ...session, endpoints: {} });
  assert.equal(result.claim, null);
  assert.match(result.error!, /^no endpoint/);
});

test('the caller\'s env reaches the command (the model bench gives browser-use its endpoint this way), and cannot replace the task', async () => {
  const command = `${JSON.stringify(process.execPath)} -e ${JSON.stringify('console.log(JSON.stringify({ done: false, message: JSON.stringify([process.env.LLM_BASE_URL, process.env.RSTACKBENCH_TASK]) }))')}`;
  const result = await processAgent({ command, stderrPath: () => path.join(dir, 'env.stderr'), env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', RSTACKBENCH_TASK: 'not the task' } }).run(session);
  assert.equal(result.error, null);
  const [base, task] = JSON.parse(result.claim!.message!) as [string, string];
  assert.equal(base, 'http://127.0.0.1:9/v1');
  assert.deepEqual(JSON.parse(task), session.task);
  assert.equal(process.env.LLM_BASE_URL, undefined, 'the harness\'s own environment is untouched');
});
