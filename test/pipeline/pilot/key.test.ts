// PILOT_API_KEY is sent to the endpoint and written nowhere: not in a plan line, an excluded answer,
// REASONS.jsonl, the ledger, the run log, or what the commands print — even when the server echoes
// the key back in its error body and in its answer. The server here is a test server, not a model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { codeRoot } from '../../../core/paths.ts';
import { makeTree, runScript } from '../../helpers/tree.ts';

const KEY = 'sk-test-7f3a9c2e5b1d8046';

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? listFiles(path.join(dir, d.name)) : [path.join(dir, d.name)]));
}

test('the API key reaches the server and is never written into a row, a log or the ledger', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  for (const f of ['prereg/layers-pilot.md', 'data/tasks/pilot-sample.jsonl']) tree.write(f, fs.readFileSync(path.join(codeRoot, f), 'utf8'));
  const seen: (string | undefined)[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    req.resume();
    req.on('end', () => {
      if (req.url === '/v1/models') { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] })); return; }
      // first an error that echoes the key, then an answer that is not a plan and holds it
      if (++n === 1) { res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `invalid key ${req.headers.authorization}` })); return; }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'test-server (not a model)', choices: [{ message: { role: 'assistant', content: `echo: ${req.headers.authorization}` } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const env = { PILOT_BASE_URL: base, PILOT_MODEL: 'm', PILOT_API_KEY: KEY, PLANS: '' };

  const freeze = await runScript(tree, 'steps/freeze.ts', ['--reason', 'pilot prereg and sample']);
  assert.equal(freeze.exitCode, 0, freeze.stderr);
  const plans = await runScript(tree, 'pilot/pilot-plans.ts', ['--run', 'key', '--only', '^cards-baseline-09$'], env);
  assert.equal(plans.exitCode, 1, plans.stderr);
  assert.ok(seen.filter((a) => a === `Bearer ${KEY}`).length >= 3, 'the key was sent, to /models and with each request');
  const excluded = fs.readFileSync(tree.file('data/excluded/pilot/key.jsonl'), 'utf8');
  assert.equal(excluded.trim().split('\n').length, 2, 'both answers were kept, as excluded');
  assert.match(excluded, /\[PILOT_API_KEY\]/, 'the echoed key is kept as a placeholder');
  const files = listFiles(tree.root);
  assert.ok(files.some((f) => f.endsWith('REASONS.jsonl')) && files.some((f) => f.endsWith('ledger.jsonl')));
  for (const f of files) assert.equal(fs.readFileSync(f, 'utf8').includes(KEY), false, `${path.relative(tree.root, f)} holds the key`);
  assert.equal(plans.stdout.includes(KEY) || plans.stderr.includes(KEY), false, 'the output holds the key');
});
