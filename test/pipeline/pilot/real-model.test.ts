// Part of make test (`make test-real-plan` runs it alone; about a minute on the idle machine, the
// model's answer being most of it). One real plan end to end, with the real smallest model (installed
// once into .state/models/): make model-server (in a throw-away tree) ─▶ its identity frozen ─▶
// pilot-plans against it (one sampled condition, the ordinary prompt) ─▶ the plan frozen ─▶
// run-pilot's interpreter in Chromium ─▶ a row of a smoke run. Whatever the model answers is kept as it answered: a valid plan is written
// and executed, an invalid one excluded with its reason. Nothing here is invented or timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { sha256 } from '../../../core/hash.ts';
import { makeTree, runScript, type Tree } from '../../helpers/tree.ts';
import { installTestModel, testModel } from '../../helpers/model.ts';
import { identityOf, identityText } from '../../../pipeline/models/identity.ts';

const CONDITION = 'cards-baseline-09';

const run = (tree: Tree, script: string, args: string[], env: Record<string, string> = {}) =>
  runScript(tree, script, args, { PILOT_BASE_URL: '', PILOT_MODEL: '', PILOT_API_KEY: '', PLANS: '', ...env });

test('a real model\'s plan: endpoint → pilot-plans → freeze → interpreter → a smoke row', { timeout: 60 * 60_000 }, async (t) => {
  await installTestModel();
  const tree = makeTree({ tasks: true });
  // one hook, stop then remove: node runs t.after hooks first-registered first, and a tree removed
  // before the stop takes the server's state file with it, leaving the server running
  let started: Awaited<ReturnType<typeof run>> | undefined;
  t.after(async () => {
    const stopped = started?.exitCode === 0 ? await run(tree, 'models/model-server.ts', ['--stop']) : undefined;
    tree.cleanup();
    if (stopped) assert.match(stopped.stdout, /\(pid \d+\) stopped/, `the test's model server was not stopped: ${stopped.stdout}${stopped.stderr}`);
  });
  for (const f of ['prereg/layers-pilot.md', 'data/tasks/pilot-sample.jsonl']) tree.write(f, fs.readFileSync(path.join(codeRoot, f), 'utf8'));
  const name = testModel().name;
  assert.equal((await run(tree, 'steps/freeze.ts', ['--reason', 'pilot prereg and sample'])).exitCode, 0);

  started = await run(tree, 'models/model-server.ts', ['--model', name, '--port', '0']);
  assert.equal(started.exitCode, 0, started.stderr);
  const base = /PILOT_BASE_URL=(\S+)/.exec(started.stdout)![1]!;
  assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  const identityFile = tree.file(`data/models/${name}.json`);
  assert.equal(fs.readFileSync(identityFile, 'utf8'), identityText(identityOf(testModel())), 'make model-server records the identity it serves');

  const env = { PILOT_BASE_URL: base, PILOT_MODEL: name, PILOT_TIMEOUT_MS: String(30 * 60_000) };
  // the identity is not frozen yet: no plan is asked for
  const ask = ['--run', 'real', '--only', `^${CONDITION}$`, '--prompt', 'ordinary'];
  const early = await run(tree, 'pilot/pilot-plans.ts', ask, env);
  assert.equal(early.exitCode, 3, early.stderr);
  assert.match(early.stderr, new RegExp(`data/models/${name}\\.json`));
  assert.equal(fs.existsSync(tree.file('data/plans/real.jsonl')), false);
  assert.equal((await run(tree, 'steps/freeze.ts', ['--reason', `model ${name}`])).exitCode, 0);
  const plans = await run(tree, 'pilot/pilot-plans.ts', ask, env);
  assert.ok(plans.exitCode === 0 || plans.exitCode === 1, plans.stderr);
  assert.match(plans.stdout, /of 1 plans/);

  const planFile = tree.file('data/plans/real.jsonl');
  const lines = fs.existsSync(planFile) ? readJsonl<{ plan_id: string; model: string; model_identity: { file: string; file_sha256: string; identity: unknown }; usage: { completion_tokens: number } }>(planFile, { schema: 'pilot-plan' }) : [];
  const excludedFile = tree.file('data/excluded/pilot/real.jsonl');
  const excluded = fs.existsSync(excludedFile) ? readJsonl<{ reason: string; content: string | null }>(excludedFile, { schema: 'pilot-excluded' }) : [];
  assert.equal(lines.length + excluded.length, 1, 'the prompt gave a plan or an excluded answer');
  for (const l of lines) {
    assert.equal(l.model, name, 'the model as the server reports it');
    assert.equal(l.model_identity.file, `data/models/${name}.json`);
    assert.equal(l.model_identity.file_sha256, sha256(fs.readFileSync(identityFile)));
    assert.deepEqual(l.model_identity.identity, identityOf(testModel()));
    assert.ok(l.usage.completion_tokens > 0);
  }
  for (const e of excluded) assert.match(e.reason, /not JSON|not a valid plan|HTTP/);
  assert.ok(lines.length >= 1, `the model gave no valid plan: ${excluded.map((e) => e.reason).join(' | ')}`);

  assert.equal((await run(tree, 'steps/freeze.ts', ['--reason', 'pilot plans real'])).exitCode, 0);
  // executed with no model: the endpoint variables are unset
  const exec = await run(tree, 'pilot/run-pilot.ts', ['--plans', 'data/plans/real.jsonl', '--smoke', '--only', `^${CONDITION}$`]);
  assert.equal(exec.exitCode, 0, exec.stderr);
  const dir = tree.file('data/excluded/layers/pilot');
  const runFile = fs.readdirSync(dir).find((f) => f.endsWith('.jsonl') && !f.includes('failed-attempts'))!;
  const rows = readJsonl<{ arm: string; plan_id: string; condition_id: string; model: string; policy: string; steps: number }>(path.join(dir, runFile), { schema: 'trace' });
  assert.equal(rows.length, lines.length, 'one row per frozen plan');
  assert.deepEqual(rows.map((r) => r.plan_id).sort(), lines.map((l) => l.plan_id).sort());
  assert.ok(rows.every((r) => r.arm === 'pilot' && r.condition_id === CONDITION && r.model === name && r.policy === 'plan-interpreter'));
});
