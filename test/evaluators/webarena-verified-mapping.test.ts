// shares the machine: no browser and no server; a Python process over files, and nothing it asserts depends on how fast it runs.
// A real-app family as a WebArena-Verified task (evaluators/webarena-verified/family_task.py): the
// tasks the mapping writes for two shipped WordPress families are loaded by WebArena-Verified's own
// data reader (its 812-task dataset with entries replaced), and what it validated says the family's
// write as its NetworkEventEvaluator reads it: the URL regex, rendered as it renders it, takes the
// requests the family's fault spec takes and refuses one it refuses; the method and the success
// status are the spec's. Every shipped family of both apps maps. Needs evaluators/.venv (made here
// when missing or stale: make evaluators).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFamily, familyCondition, listFamilies, type FamilyCondition } from '../../fixtures/real-app.ts';
import { ensureEvaluatorsVenv, evaluatorsPython, webarenaVerifiedScore } from '../../pipeline/evaluators/install.ts';

const run = promisify(execFile);
const origin = 'http://127.0.0.1:8650';

interface NetworkExpected { url: string; http_method: string; response_status: number; query_params: Record<string, string[]> | null; post_data: Record<string, string> | null }
interface MappedTask {
  trace_id: string;
  task_id: number;
  task: { sites: string[]; intent: string; start_urls: string[]; eval: ({ evaluator: 'AgentResponseEvaluator'; expected: { task_type: string; status: string } } | { evaluator: 'NetworkEventEvaluator'; expected: NetworkExpected; ignored_query_params_patterns: string[] | null })[] };
}

/** The tasks the adapter maps, as WebArena-Verified's reader validated them (score.py --tasks-only). */
async function mapped(conditions: FamilyCondition[], dir: string): Promise<MappedTask[]> {
  const file = path.join(dir, `traces-${conditions.length}.jsonl`);
  fs.writeFileSync(file, conditions.map((c) => JSON.stringify({ trace_id: `${c.family}/${c.variant}`, family: c, origin, har_path: 'none.har', claim: { done: true, message: '' } })).join('\n') + '\n');
  const { stdout } = await run(evaluatorsPython, [webarenaVerifiedScore, file, '--tasks-only'], { maxBuffer: 64 << 20 });
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as MappedTask);
}

const variantsOf = (app: 'wordpress' | 'mediawiki', family: string) => {
  const f = readFamily(app, family);
  return f.variants.map((v) => familyCondition(f, v.id));
};

/** Whether WebArena's URL check takes a request URL: its regex with the placeholder rendered as render_url does, on the URL without its query, then each expected parameter's value regex. */
function urlTaken(expected: NetworkExpected, ignoreQuery: boolean, url: string): boolean {
  const u = new URL(url);
  const pattern = expected.url.replace('__SHOPPING_ADMIN__', origin);
  if (!new RegExp(pattern).test(`${u.origin}${u.pathname}`)) return false;
  if (ignoreQuery) return true;
  const want = expected.query_params ?? {};
  const names = new Set([...Object.keys(want), ...u.searchParams.keys()]);
  return [...names].every((n) => want[n] !== undefined && u.searchParams.has(n) && new RegExp(want[n]![0]!, 'i').test(u.searchParams.get(n)!.toLowerCase()));
}

let dir = '';
before(async () => {
  await ensureEvaluatorsVenv('test');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-wav-map-'));
});

test('two WordPress families (a form POST, a GET with its query): their tasks load through WebArena-Verified\'s reader and say the spec\'s write', async (t) => {
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const title = variantsOf('wordpress', 'wordpress-general-title');
  const trash = variantsOf('wordpress', 'wordpress-posts-trash');
  const tasks = await mapped([...title, ...trash], dir);
  assert.equal(tasks.length, title.length + trash.length);
  assert.equal(new Set(tasks.map((x) => x.task_id)).size, tasks.length, 'one task per variant, each its own id');

  const cases: { condition: FamilyCondition; takes: string; refuses: string }[] = [
    ...title.map((condition) => ({ condition, takes: `${origin}/wp-admin/options.php`, refuses: `${origin}/wp-admin/options-general.php` })),
    ...trash.map((condition) => {
      const post = /post=(\d+)/.exec(String((condition.spec.write as { path: string }).path))![1];
      return { condition, takes: `${origin}/wp-admin/post.php?post=${post}&action=trash&_wpnonce=0a1b2c3d4e`, refuses: `${origin}/wp-admin/post.php?post=${post}&action=untrash&_wpnonce=0a1b2c3d4e` };
    }),
  ];
  for (const [i, { condition, takes, refuses }] of cases.entries()) {
    const { task } = tasks[i]!;
    const spec = condition.spec as { write: { method: string; path: string; form?: Record<string, string> }; success: { status: number } };
    const where = `${condition.family}/${condition.variant}`;
    assert.deepEqual(task.sites, ['shopping_admin'], where);
    assert.equal(task.intent, condition.instruction, where);
    assert.deepEqual(task.start_urls, [`__SHOPPING_ADMIN__${condition.start}`], where);
    const answer = task.eval.find((e) => e.evaluator === 'AgentResponseEvaluator')!;
    assert.deepEqual([answer.expected.task_type, answer.expected.status], ['MUTATE', 'SUCCESS'], where);
    const network = task.eval.find((e) => e.evaluator === 'NetworkEventEvaluator')!;
    assert.ok(network && network.evaluator === 'NetworkEventEvaluator', where);
    assert.equal(network.expected.http_method, spec.write.method, where);
    assert.equal(network.expected.response_status, spec.success.status, where);
    // the family's own regex on path+query decides the two URLs, and the task must decide them alike
    const pathAndQuery = (u: string) => { const x = new URL(u); return `${x.pathname}${x.search}`; };
    assert.ok(new RegExp(spec.write.path).test(pathAndQuery(takes)) && !new RegExp(spec.write.path).test(pathAndQuery(refuses)), `${where}: the spec itself takes ${takes} and refuses ${refuses}`);
    const ignoreQuery = (network.ignored_query_params_patterns ?? []).includes('.');
    assert.ok(urlTaken(network.expected, ignoreQuery, takes), `${where}: the task takes ${takes}: ${JSON.stringify(network.expected)}`);
    assert.ok(!urlTaken(network.expected, ignoreQuery, refuses), `${where}: the task refuses ${refuses}: ${JSON.stringify(network.expected)}`);
    for (const [field, pattern] of Object.entries(spec.write.form ?? {})) {
      assert.equal(network.expected.post_data?.[field], pattern, `${where}: the form field ${field} with the spec's anchored regex`);
    }
  }
});

test('every shipped family of both apps maps, one task per variant, loaded by its reader', async () => {
  const conditions = (['wordpress', 'mediawiki'] as const).flatMap((app) => listFamilies(app).flatMap((f) => variantsOf(app, f)));
  const mdir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-wav-all-'));
  try {
    const tasks = await mapped(conditions, mdir);
    assert.equal(tasks.length, conditions.length);
    assert.equal(new Set(tasks.map((x) => x.task_id)).size, conditions.length);
    for (const [i, c] of conditions.entries()) {
      const network = tasks[i]!.task.eval.find((e) => e.evaluator === 'NetworkEventEvaluator');
      assert.ok(network, `${c.family}/${c.variant}: a NetworkEventEvaluator`);
    }
  } finally {
    fs.rmSync(mdir, { recursive: true, force: true });
  }
});

test('a spec the mapping cannot say is refused with exit 2, naming the family and the field', async () => {
  const [condition] = variantsOf('wordpress', 'wordpress-general-title');
  const bad = { ...condition!, spec: { ...condition!.spec, write: { method: 'POST', path: '^/wp-admin/options' } } };
  const rdir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-wav-bad-'));
  try {
    const failed = await mapped([bad], rdir).then(() => null, (e: { code: number; stderr: string }) => e);
    assert.ok(failed, 'the unanchored path is refused');
    assert.equal(failed.code, 2);
    assert.match(failed.stderr, /wordpress-general-title .*spec\.write\.path '\^\/wp-admin\/options'/);
  } finally {
    fs.rmSync(rdir, { recursive: true, force: true });
  }
});
