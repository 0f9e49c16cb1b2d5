// The model server with the real smallest model (installed once into .state/models/): what it
// answers, and that no bad request — malformed JSON, a prompt over the context, a request while the
// model loads, several at once, a schema its grammar cannot hold — hangs or ends it. No answer is
// invented here: every completion is the model's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { requestPlan } from '../../../pipeline/pilot/client.ts';
import { identityOf } from '../../../pipeline/models/identity.ts';
import { installTestModel, startModelServer, testModel, waitReady } from '../../helpers/model.ts';

const post = (base: string, body: string) => fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const hello = (extra: Record<string, unknown> = {}) => JSON.stringify({ model: testModel().name, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 4, ...extra });

test('the model server: loading, bad requests, a queue, the pilot\'s client, and it stays up', { timeout: 30 * 60_000 }, async (t) => {
  await installTestModel();
  // loading starts 3 s after listening, so the first request surely meets a model still loading;
  // one request may wait while another is answered
  const server = await startModelServer(['--load-after-ms', '3000', '--max-waiting', '1', '--max-tokens', '16']);
  t.after(async () => { await server.stop(); });

  await t.test('a request while the model loads: 503 model_loading, Retry-After', async () => {
    const res = await post(server.base, hello());
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'model_loading');
    const health = await fetch(`http://127.0.0.1:${server.port}/health`);
    assert.equal(health.status, 503);
    assert.equal(((await health.json()) as { status: string }).status, 'loading');
  });

  await waitReady(server);

  await t.test('GET /v1/models: the one model with its identity', async () => {
    const body = (await (await fetch(`${server.base}/models`)).json()) as { data: { id: string; ready: boolean; identity: unknown }[] };
    assert.equal(body.data.length, 1);
    assert.equal(body.data[0]!.id, testModel().name);
    assert.equal(body.data[0]!.ready, true);
    // the identity it reports is the one it serves: here with an answer limit of 16 (--max-tokens)
    assert.deepEqual(body.data[0]!.identity, identityOf(testModel(), { maxTokens: 16 }));
    assert.equal((body.data[0]!.identity as { max_tokens: number }).max_tokens, 16);
    assert.notDeepEqual(body.data[0]!.identity, identityOf(testModel()), 'another answer limit is another identity');
  });

  await t.test('malformed JSON, bad fields, unknown routes: clear 4xx errors', async () => {
    const cases: [string, number, RegExp][] = [
      ['{"messages": [', 400, /not JSON/],
      ['[]', 400, /JSON object/],
      [JSON.stringify({ messages: [] }), 400, /messages/],
      [JSON.stringify({ messages: [{ role: 'robot', content: 'x' }] }), 400, /role/],
      [hello({ temperature: 0.7 }), 400, /temperature/],
      [hello({ stream: true }), 400, /stream/],
      [hello({ model: 'gpt-4o' }), 404, /serves the model/],
      [hello({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { allOf: [{ type: 'object' }] } } } }), 400, /response_format json_schema: .*allOf/],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(server.base, body);
      assert.equal(res.status, status, body);
      assert.match(((await res.json()) as { error: { message: string } }).error.message, message, body);
    }
    assert.equal((await fetch(`${server.base}/completions`, { method: 'POST', body: '{}' })).status, 404);
    assert.equal((await fetch(`${server.base}/chat/completions`)).status, 405);
  });

  await t.test('a prompt over the context size: 400 context_length_exceeded, the model never runs', async () => {
    const res = await post(server.base, JSON.stringify({ messages: [{ role: 'user', content: 'word '.repeat(testModel().contextSize + 100) }] }));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'context_length_exceeded');
    assert.match(body.error.message, new RegExp(`context holds ${testModel().contextSize}`));
  });

  await t.test('three at once with room for one waiting: answered in turn or refused with 503 server_busy, never hung', async () => {
    const answers = await Promise.all([0, 1, 2].map(() => post(server.base, hello())));
    const statuses = answers.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 200 || s === 503), String(statuses));
    assert.ok(statuses.filter((s) => s === 200).length >= 2, `the running one and the waiting one are answered: ${statuses}`);
    for (const r of answers) {
      const body = (await r.json()) as { usage?: { completion_tokens: number }; error?: { code: string } };
      if (r.status === 200) assert.ok(body.usage!.completion_tokens >= 1 && body.usage!.completion_tokens <= 4, 'max_tokens bounds the answer');
      else assert.equal(body.error!.code, 'server_busy');
    }
  });

  await t.test('the same request twice gives the same answer (temperature 0, fixed seed, a cleared sequence)', async () => {
    const a = (await (await post(server.base, hello({ max_tokens: 8 }))).json()) as { choices: { message: { content: string } }[]; system_fingerprint: string };
    const b = (await (await post(server.base, hello({ max_tokens: 8 }))).json()) as typeof a;
    assert.equal(a.choices[0]!.message.content, b.choices[0]!.message.content);
    assert.match(a.system_fingerprint, new RegExp(testModel().gguf.sha256.slice(0, 12)));
  });

  await t.test('the pilot\'s client: the plan schema is accepted as a grammar (no step-down); the answer is validated', async () => {
    const state = { format: 'json_schema' as 'json_schema' | 'json_object' | 'none' };
    const messages = [{ role: 'system' as const, content: 'Answer with one JSON object that matches the plan schema.' }, { role: 'user' as const, content: 'Task: click the button "Save".' }];
    const answer = await requestPlan({ baseUrl: server.base, model: testModel().name, timeoutMs: 20 * 60_000 }, messages, state);
    assert.equal(answer.response_format, 'json_schema');
    assert.equal(state.format, 'json_schema');
    assert.equal(answer.model, testModel().name);
    assert.ok(answer.usage && answer.usage.prompt_tokens! > 10 && answer.usage.completion_tokens! >= 1 && answer.usage.completion_tokens! <= 16, JSON.stringify(answer.usage));
    // 16 tokens (--max-tokens) cannot hold a whole plan: the client must say so, not pass it on
    assert.equal(answer.ok, false);
    if (!answer.ok) assert.match(answer.reason, /not JSON|not a valid plan/);
  });

  await t.test('after all of it the server still answers', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/health`)).status, 200);
    assert.equal((await post(server.base, hello())).status, 200);
  });

  const ended = await server.stop();
  assert.equal(ended.exitCode, 0, ended.stderr);
  assert.equal(fs.existsSync(server.stateFile), false, 'the state file goes with the server');
});
