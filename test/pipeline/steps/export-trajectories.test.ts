// make export-trajectories as a user runs it, on a throw-away tree: two traces made from the record's
// first real-apps row (WordPress's pending administration e-mail: the page says saved, the store keeps
// the old address), written by the trace writer with a HAR and store reads shaped as the real-apps
// arm writes them; one store read keeps the old address, the other holds the target. The export is
// then read by AgentRewardBench 0.1.2's own judge loader (agent_reward_bench.judge.
// create_chat_messages_from_trajectory) and its label parser (agent_reward_bench.eval.metrics.numerize),
// from a throw-away venv made here (pip, --no-deps: the loader imports only tqdm besides the standard library).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';
import { TraceWriter } from '../../../pipeline/kernel/trace-writer.ts';
import type { LayersRow } from '../../../core/contracts.ts';

const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-arb-venv-'));
const python = path.join(venv, 'bin', 'python');
before(async () => {
  const made = await run('python3', ['-m', 'venv', venv]);
  assert.equal(made.exitCode, 0, made.stderr);
  const installed = await run(python, ['-m', 'pip', 'install', '--quiet', '--no-deps', 'agent-reward-bench==0.1.2', 'tqdm==4.67.1']);
  assert.equal(installed.exitCode, 0, installed.stderr);
});
after(() => fs.rmSync(venv, { recursive: true, force: true }));

function recordedRow(): LayersRow {
  const dir = path.join(codeRoot, 'data/raw/layers/real-apps');
  const file = fs.readdirSync(dir).filter((f) => f.includes('chromium') && f.endsWith('.jsonl')).sort()[0]!;
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8').split('\n')[0]!) as LayersRow;
}

/** an entry as the proxy's HAR records it (proxy/src/har.ts): `_t` in ms after the trace's start */
const entry = (t: number, method: string, url: string, status: number, write = false) => ({
  startedDateTime: '2026-12-06T00:00:00.000Z', time: 1, _t: t, ...(write ? { _write: true } : {}),
  request: { method, url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: write ? 60 : 0,
    ...(write ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: 'option_page=general&action=update&new_admin_email=ops%40example.invalid' } } : {}) },
  response: { status, statusText: '', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'text/html' }, redirectURL: status === 302 ? '/wp-admin/options-general.php?settings-updated=true' : '', headersSize: -1, bodySize: 0 },
  cache: {}, timings: { send: 0, wait: 1, receive: 0 },
});
const origin = 'http://127.0.0.1:8650';
// written out of order: the export sorts the steps by time
const har = JSON.stringify({ log: { version: '1.2', creator: { name: 'rstackbench-fault-proxy', version: '1' }, pages: [], comment: '12 static asset requests left out', entries: [
  entry(137.8, 'POST', `${origin}/wp-admin/options.php`, 302, true),
  entry(-1500, 'GET', `${origin}/wp-admin/options-general.php`, 200),
  entry(200.1, 'GET', `${origin}/wp-admin/options-general.php?settings-updated=true`, 200),
] } });

test('make export-trajectories: each trace with files becomes an AgentRewardBench trajectory its judge loader reads, labelled by the store', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  tree.write('data/tasks/layers-real-apps.jsonl', fs.readFileSync(path.join(codeRoot, 'data/tasks/layers-real-apps.jsonl'), 'utf8'));
  const base = recordedRow();
  assert.equal(base.vts, false, 'the record\'s row: the store keeps the old address');
  const storeRead = (value: string) => JSON.stringify({ postcondition: base.target.key, target: String(base.target.value), before: base.persisted.value, boundary: { at_ms: base.real_app!.read_at, value }, later: [], changes: { before: null, boundary: null } });
  const writer = TraceWriter.open({ study: 'layers', arm: 'real-apps', runId: 'r', key: (r) => `${r.condition_id}|${r.policy}` });
  writer.append({ ...base, files: [{ name: 'store.json', content: storeRead(String(base.persisted.value)) }, { name: 'trace.har', content: har }] });
  writer.append({ ...base, policy: 'semantic-recovery', vts: true, false_completion: false, claim: { done: true, message: 'the success notice showed' }, files: [{ name: 'trace.har', content: har }, { name: 'store.json', content: storeRead(String(base.target.value)) }] });
  // a row of the same run without files (made before issue 51): not exported
  writer.append({ ...base, policy: 'verification-aware' });

  const out = tree.file('export');
  const ran = await runScript(tree, 'steps/export-trajectories.ts', ['--out', out]);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /2 trajectories of 1 run files \(the store held the target in 1, not in 1\); 1 rows kept no files/);

  const labels = fs.readFileSync(path.join(out, 'labels.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; trajectory: string; db_success: boolean; policy: string; false_completion: boolean });
  assert.deepEqual(labels.map((l) => [l.policy, l.db_success, l.false_completion]), [[base.policy, false, true], ['semantic-recovery', true, false]]);
  const task = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers-real-apps.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { condition_id: string; instruction: string }).find((c) => c.condition_id === base.condition_id)!;
  for (const label of labels) {
    const trajectory = JSON.parse(fs.readFileSync(path.join(out, label.trajectory), 'utf8')) as Record<string, unknown> & { steps: Record<string, unknown>[]; rstackbench: Record<string, unknown> };
    // the fields AgentRewardBench's scripts and loaders read, by name
    for (const field of ['benchmark', 'agent', 'model', 'valid', 'experiment', 'trajectory_dir', 'goal', 'seed', 'model_args', 'flags', 'summary_info', 'steps']) assert.ok(field in trajectory, `${label.trajectory}: ${field}`);
    assert.equal(trajectory.goal, task.instruction);
    assert.deepEqual(trajectory.steps.map((s) => s.num), trajectory.steps.map((_, i) => i));
    assert.equal(trajectory.steps[0]!.url, `${origin}/wp-admin/options-general.php`, 'the steps in time order: the start page first');
    assert.equal(trajectory.steps.filter((s) => (s.rstackbench_step as { write?: true }).write).length, 1);
    assert.equal(trajectory.steps.at(-1)!.screenshot_path, null);
    assert.equal(trajectory.steps.at(-1)!.axtree, null);
    assert.equal(trajectory.rstackbench.policy, label.policy);
    // the label is kept out of what a judge reads
    assert.doesNotMatch(JSON.stringify(trajectory), /db_success|"vts"|false_completion/);
  }

  // AgentRewardBench's own loader and label parser on the export
  const check = `
import csv, json, sys
from pathlib import Path
from agent_reward_bench.judge import create_chat_messages_from_trajectory
from agent_reward_bench.eval.metrics import numerize
from agent_reward_bench.judge.utils import is_unsure
out = Path(sys.argv[1])
result = {}
for row in csv.DictReader(open(out / 'annotations.csv', newline='')):
    path = next(out.glob('cleaned/' + row['benchmark'] + '/' + row['model_name'] + '/**/' + row['task_id'] + '.json'))
    trajectory = json.loads(path.read_text())
    messages = create_chat_messages_from_trajectory(trajectory, path.parent, use_screenshot=False, use_axtree=False)
    user = messages['regular'][1]['content']
    result[row['task_id'] + '|' + row['model_name']] = {
        'success': numerize(row['trajectory_success']),
        'unsure': [is_unsure(row[k]) for k in ('trajectory_side_effect', 'trajectory_optimality', 'trajectory_looping')],
        'goal': user[0]['text'], 'actions': user[1]['text'],
    }
print(json.dumps(result))
`;
  const read = await run(python, ['-c', check, out]);
  assert.equal(read.exitCode, 0, read.stderr);
  const judged = JSON.parse(read.stdout) as Record<string, { success: number; unsure: boolean[]; goal: string; actions: string }>;
  assert.deepEqual(Object.keys(judged).sort(), labels.map((l) => `${l.task_id}|${l.policy}`).sort());
  for (const label of labels) {
    const j = judged[`${label.task_id}|${label.policy}`]!;
    assert.equal(j.success, label.db_success ? 1 : 0);
    assert.deepEqual(j.unsure, [true, true, true]);
    assert.ok(j.goal.includes(task.instruction), j.goal);
    assert.match(j.actions, /POST \/wp-admin\/options\.php → 302/);
  }
  assert.match(judged[`${labels[1]!.task_id}|semantic-recovery`]!.actions, /send_msg_to_user\("the success notice showed"\)/);
  const printed = Object.values(judged).map((j) => j.actions.split('Step:').length - 1);
  process.stdout.write(`# AgentRewardBench's loader read ${Object.keys(judged).length} trajectories, ${printed.join(' and ')} steps\n`);
});

test("make export-trajectories on the registered record, read where it is: every trace that kept its files, of every arm and version (the transport arm's v2 real-application and small-app conditions from their own files), labelled by its row's VTS", async (t) => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-arb-record-'));
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  // the rows with files, counted here from the run files themselves
  const expected = new Map<string, boolean>();
  for (const arm of ['real-apps', 'transport', 'agent']) {
    const dir = path.join(codeRoot, 'data/raw/layers', arm);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean)) {
        const row = JSON.parse(line) as LayersRow & { run_id: string; attachments?: unknown[] };
        if (row.attachments?.length) expected.set(`rstackbench.${row.run_id}.${row.condition_id}|${row.policy}`, row.vts);
      }
    }
  }
  assert.ok([...expected.keys()].some((k) => k.includes('layers-transport-v2-')), 'the record holds transport v2 traces with files');
  const ran = await run('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/steps/export-trajectories.ts'), '--out', out], { cwd: codeRoot, env: { RSTACK_ROOT: codeRoot } });
  assert.equal(ran.exitCode, 0, ran.stderr);
  const labels = fs.readFileSync(path.join(out, 'labels.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { task_id: string; policy: string; db_success: boolean });
  assert.deepEqual(new Map(labels.map((l) => [`${l.task_id}|${l.policy}`, l.db_success])), expected);
});
