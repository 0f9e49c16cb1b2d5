// shares the machine: a throw-away tree and a test server of its own; the plans it executes are on baseline and Action conditions, whose outcomes follow counts (clicks swallowed), not how fast the machine is.
// The planner client and the pilot's plan files, end to end, against a small HTTP server this test
// starts on 127.0.0.1. The server is NOT a model: it returns plans the test builds from the task's
// words (each labelled so in its note), one answer that is not JSON, and one HTTP 500. The valid
// plans are written, frozen and executed; the other two go to data/excluded/ with their reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { makeTree, runScript, type Tree } from '../../helpers/tree.ts';
import { requestPlan } from '../../../pipeline/pilot/client.ts';
import type { Plan } from '../../../pipeline/pilot/plan.ts';

const LABEL = 'built by the test server from the task text; not model output';

/** A plan built by the test from the instruction's words: the ordinary one acts, the other also checks. */
function testPlan(system: string, user: string): Plan {
  const m = /In the project "([^"]+)", set Mode to "([^"]+)"/.exec(user);
  if (!m) throw new Error(`the test server cannot read the task: ${user.slice(0, 200)}`);
  const [, project, mode] = m;
  const act: Plan['steps'] = [
    { action: 'select', scope: project!, label: 'Mode', option: mode! },
    { action: 'click', scope: project!, button: 'Save change' },
  ];
  const checks: Plan['steps'] = [
    { action: 'check_text', scope: project!, text: 'Saved', timeout_ms: 800, on_fail: 'retry', retry_from: 1, max_retries: 3 },
    { action: 'reload' },
    { action: 'read_summary', scope: project!, expect: mode!, timeout_ms: 300, on_fail: 'retry', retry_from: 0, max_retries: 4 },
  ];
  return { note: LABEL, steps: [...act, ...(/recovery/.test(system) ? checks : []), { action: 'stop', done: true }] };
}

interface Received { body: { model: string; messages: { role: string; content: string }[]; response_format?: { type: string } }; auth?: string }

/** The test's server: answers by the order of requests, as `script` says for each. */
async function startTestServer(script: (n: number) => 'plan' | 'not-json' | 'http-500' | 'reject-format') {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      const body = JSON.parse(text) as Received['body'];
      received.push({ body, auth: req.headers.authorization });
      const what = script(received.length);
      if (what === 'http-500') { res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"test server: internal error"}'); return; }
      if (what === 'reject-format' && body.response_format?.type === 'json_schema') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"response_format json_schema is not supported"}');
        return;
      }
      const system = body.messages.find((m) => m.role === 'system')!.content;
      const user = body.messages.find((m) => m.role === 'user')!.content;
      const content = what === 'not-json' ? 'Here is my plan: first select the mode, then' : JSON.stringify(testPlan(system, user));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: `test-${received.length}`, object: 'chat.completion', model: 'test-server (not a model)',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100 + received.length, completion_tokens: 20, total_tokens: 120 + received.length },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { base, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A pipeline script run as a user would, against the tree, with the planner's variables as given (unset otherwise). */
const run = (tree: Tree, script: string, args: string[], env: Record<string, string> = {}) =>
  runScript(tree, script, args, { PILOT_BASE_URL: '', PILOT_MODEL: '', PILOT_API_KEY: '', PLANS: '', ...env });

function pilotTree(): Tree {
  const tree = makeTree({ tasks: true });
  for (const f of ['prereg/layers-pilot.md', 'data/tasks/pilot-sample.jsonl']) tree.write(f, fs.readFileSync(path.join(codeRoot, f), 'utf8'));
  return tree;
}

test('the client steps down from a JSON-schema response_format the server rejects, and sends the key', async (t) => {
  const server = await startTestServer(() => 'reject-format');
  t.after(server.close);
  const messages = [{ role: 'system' as const, content: 'frame, with recovery' }, { role: 'user' as const, content: 'Task: In the project "Atlas", set Mode to "Quiet" and save the change.' }];
  const state = { format: 'json_schema' as const } as { format: 'json_schema' | 'json_object' | 'none' };
  const answer = await requestPlan({ baseUrl: server.base, model: 'm', apiKey: 'k-123', timeoutMs: 10_000 }, messages, state);
  assert.equal(answer.ok, true);
  assert.equal(answer.response_format, 'json_object');
  assert.equal(state.format, 'json_object', 'the accepted format is kept for the next request');
  assert.deepEqual(server.received.map((r) => r.body.response_format?.type), ['json_schema', 'json_object']);
  assert.equal(server.received[0]!.auth, 'Bearer k-123');
  assert.equal(answer.model, 'test-server (not a model)');
  assert.equal(answer.usage?.total_tokens, 122, 'the usage of the request that answered');
});

test('without an endpoint or frozen plans, pilot-plans and run-pilot name PILOT_BASE_URL and exit 2; --all skips', async (t) => {
  const tree = pilotTree();
  t.after(tree.cleanup);
  const plans = await run(tree, 'pilot/pilot-plans.ts', []);
  assert.equal(plans.exitCode, 2);
  assert.match(plans.stderr, /PILOT_BASE_URL/);
  const exec = await run(tree, 'pilot/run-pilot.ts', []);
  assert.equal(exec.exitCode, 2);
  assert.match(exec.stderr, /PILOT_BASE_URL/);
  const all = await run(tree, 'pilot/run-pilot.ts', ['--all']);
  assert.equal(all.exitCode, 0);
  assert.match(all.stderr, /pilot is skipped/);
});

test('pilot-plans: valid plans are written, the invalid answer and the HTTP 500 are excluded; frozen plans are executed', async (t) => {
  const tree = pilotTree();
  t.after(tree.cleanup);
  const server = await startTestServer((n) => (n === 2 ? 'not-json' : n === 3 ? 'http-500' : 'plan'));
  t.after(server.close);
  const env = { PILOT_BASE_URL: server.base, PILOT_MODEL: 'test-model' };
  assert.equal((await run(tree, 'steps/freeze.ts', ['--reason', 'pilot prereg and sample'])).exitCode, 0);

  const first = await run(tree, 'pilot/pilot-plans.ts', ['--run', 'test-run'], env);
  assert.equal(first.exitCode, 1, first.stderr);
  assert.match(first.stdout, /58 of 60 plans/);
  assert.equal(server.received.length, 60);
  // the model sees the task and the page, never the harness's key or the fault
  for (const r of server.received) {
    const sent = JSON.stringify(r.body.messages);
    assert.doesNotMatch(sent, /cards-|baseline|severity|swallow|revealAfterMs|saves_required|commit_delay|"config"/, sent.slice(0, 300));
    assert.equal(r.body.response_format?.type, 'json_schema');
    assert.equal(r.auth, undefined);
  }
  assert.ok(server.received.some((r) => /Loading/.test(r.body.messages[1]!.content)), 'an Access condition is seen at time zero, still loading');

  const planFile = tree.file('data/plans/test-run.jsonl');
  const lines = readJsonl<{ plan_id: string; model: string; usage: { total_tokens: number }; plan: Plan; endpoint: string }>(planFile, { schema: 'pilot-plan' });
  assert.equal(lines.length, 58);
  assert.ok(lines.every((l) => l.model === 'test-server (not a model)' && l.plan.note === LABEL && l.endpoint === server.base));
  const excluded = readJsonl<{ reason: string; status: number | null }>(tree.file('data/excluded/pilot/test-run.jsonl'), { schema: 'pilot-excluded' });
  assert.deepEqual(excluded.map((e) => e.status), [200, 500]);
  assert.match(excluded[0]!.reason, /not JSON/);
  assert.match(excluded[1]!.reason, /HTTP 500/);
  const reasons = readJsonl<{ file: string; reason: string }>(tree.file('data/excluded/REASONS.jsonl'), { schema: 'exclusion' });
  assert.equal(reasons.filter((r) => r.file === 'data/excluded/pilot/test-run.jsonl').length, 2);

  // not frozen yet: nothing is executed
  const early = await run(tree, 'pilot/run-pilot.ts', ['--plans', 'data/plans/test-run.jsonl', '--smoke']);
  assert.equal(early.exitCode, 3, early.stderr);

  // asked again, the two missing plans arrive; the file is complete
  const second = await run(tree, 'pilot/pilot-plans.ts', ['--run', 'test-run'], env);
  assert.equal(second.exitCode, 0, second.stderr);
  assert.equal(server.received.length, 62);
  assert.equal(readJsonl(planFile).length, 60);

  assert.equal((await run(tree, 'steps/freeze.ts', ['--reason', 'pilot plans test-run'])).exitCode, 0);
  const again = await run(tree, 'pilot/pilot-plans.ts', ['--run', 'test-run'], env);
  assert.equal(again.exitCode, 2, 'a frozen plan file is never appended to');
  assert.match(again.stderr, /is frozen/);

  // executed without any model: the endpoint is unset
  const exec = await run(tree, 'pilot/run-pilot.ts', ['--plans', 'data/plans/test-run.jsonl', '--smoke', '--only', '^cards-(baseline|action)-']);
  assert.equal(exec.exitCode, 0, exec.stderr);
  const dir = tree.file('data/excluded/layers/pilot');
  const runFile = fs.readdirSync(dir).find((f) => f.endsWith('.jsonl') && !f.includes('failed-attempts'))!;
  const rows = readJsonl<{ arm: string; prompt: string; plan_id: string; layer: string; vts: boolean; steps: number; tokens: number; planning_ms: number; model: string; claim: { done: boolean } | null }>(path.join(dir, runFile), { schema: 'trace' });
  assert.equal(rows.length, 20, 'five baseline and five action conditions, two prompts each');
  assert.ok(rows.every((r) => r.arm === 'pilot' && r.model === 'test-server (not a model)' && r.tokens > 0 && r.planning_ms >= 0 && r.steps > 0));
  assert.deepEqual(new Set(rows.map((r) => r.prompt)), new Set(['ordinary', 'reliability']));
  // the test's plans: acting once fails every Action condition; checking and retrying does not
  const vts = (layer: string, prompt: string) => rows.filter((r) => r.layer === layer && r.prompt === prompt && r.vts).length;
  assert.equal(vts('action', 'ordinary'), 0);
  assert.equal(vts('action', 'reliability'), 5);
  assert.equal(vts('baseline', 'reliability'), 5);
  assert.match(exec.stdout, /Table V \(paired\)/, 'the end-of-run screen is the analysis\'s Table V');
});
