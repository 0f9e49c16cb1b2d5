// The Slurm path on a real Slurm: a one-node cluster (Debian's slurm-wlm and munge, 127.0.0.1, its
// state in a temporary folder) started through core/service.ts. A small registered arm in a
// throw-away tree (6 conditions × 3 policies = 18 units) is submitted with the real CLI as 4 array
// tasks and a merge job after them; the merged run equals a one-machine run of the same units row
// for row (times and run ids aside). A second array loses one task to scancel mid-run and has another
// requeued mid-run (scontrol requeue, as a lost node does): the requeued task resumes its run, the
// resubmission runs only the cancelled shard again, and the merge has every row once. The cluster is
// stopped at the end, leaving no daemon and no process of its jobs running.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTree, type Tree } from '../../helpers/tree.ts';
import { run } from '../../helpers/run.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { layersPlan, unitKey } from '../../../pipeline/layers/arms.ts';
import { cluster, clusterEnv, startCluster, stopCluster, type Cluster } from '../../../pipeline/slurm/cluster.ts';
import { dataPaths, readNote, readSubmission } from '../../../pipeline/slurm/submission.ts';
import { snapshot } from '../../../pipeline/slurm/submit.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { countRows } from '../../../core/files.ts';
import { runCommand } from '../../../core/command.ts';
import { codeRoot, runOutputs } from '../../../core/paths.ts';
import { portFree, runningPid } from '../../../core/service.ts';
import { setQuiet } from '../../../core/log.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// what a run on another machine, at another time, may change (as test/pipeline/kernel/merge.test.ts)
const timesAside = ({ run_id, started_at, elapsed_ms, timing_margin_ms, boundary, smoke, ...rest }: LayersRow & { smoke?: boolean; boundary?: string }) => rest;

let tree: Tree;
let c: Cluster;
let work: string;

/** Two free ports from 8700 up (this project's share of the machine's ports when it runs beside other work). */
async function freePorts(): Promise<{ slurmctld: number; slurmd: number }> {
  const found: number[] = [];
  for (let p = 8700; p < 8750 && found.length < 2; p++) if (await portFree(p)) found.push(p);
  assert.equal(found.length, 2, 'two free ports in 8700–8749');
  return { slurmctld: found[0]!, slurmd: found[1]! };
}

/** Every process whose environment names this cluster's slurm.conf: its jobs' scripts, runners and browsers. */
function jobProcesses(conf: string): number[] {
  const mark = `SLURM_CONF=${conf}`;
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid).filter((p) => {
    try { return fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(mark); } catch { return false; }
  }).map(Number);
}

before(async () => {
  setQuiet(true);
  tree = makeTree();
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => /"condition_id":"cards-baseline-0[1-6]"/.test(l));
  assert.equal(tasks.length, 6);
  tree.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-slurm-'));
  fs.chmodSync(work, 0o755); // munged runs as the munge user: its folders must be reachable
  c = cluster(path.join(work, 'cluster'), await freePorts());
  await startCluster(c);
  process.env.SLURM_CONF = clusterEnv(c).SLURM_CONF;
});

after(async () => {
  try {
    await stopCluster(c);
    for (const s of [c.munged, c.slurmctld, c.slurmd]) assert.equal(runningPid(s), null, `${s.comm} stopped`);
    assert.deepEqual(jobProcesses(c.conf), [], 'no process of the cluster\'s jobs is left running');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    tree.cleanup();
  }
});

const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [bin, ...args], { cwd: codeRoot, env });
const planKeys = () => { const plan = layersPlan('main', 'chromium'); return plan.units.map((u) => plan.unitKey(u)); };
const mergedRun = (into: string) => {
  const dir = runOutputs(into).rawArm('layers', 'main');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1, `one merged run in ${dir}: ${files.join(', ')}`);
  assert.match(files[0]!, /^layers-main-chromium-\d{8}T\d{6}\.jsonl$/);
  return readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
};
/** Rows on disk of shard k's run file so far. */
const shardRows = (data: string, k: number) => {
  const dir = runOutputs(dataPaths(data).shardRoot(k)).rawArm('layers', 'main');
  const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) : undefined;
  return file ? countRows(path.join(dir, file)) : 0;
};
async function untilRows(data: string, k: number, rows: number): Promise<void> {
  for (let i = 0; i < 1200 && shardRows(data, k) < rows; i++) await sleep(100);
  assert.ok(shardRows(data, k) >= rows, `shard ${k} wrote ${rows} row(s)`);
}

test('an arm as 4 array tasks and a merge job after them: the merged run is a one-machine run, row for row', async () => {
  const single = path.join(work, 'single');
  const one = await cli(['run-layers', '--browser', 'chromium'], { RSTACK_SCRATCH: single });
  assert.equal(one.exitCode, 0, one.stderr);
  const reference = mergedRun(single);
  assert.deepEqual(reference.map(unitKey), planKeys(), 'a one-machine run writes its rows in the plan\'s order');

  const data = path.join(work, 'array-1');
  const into = path.join(work, 'merged-1');
  const r = await cli(['slurm', '--target', 'run-layers', '--shards', '4', '--cpus-per-task', '1', '--time', '10:00', '--data', data, '--into', into, '--wait', '--', '--browser', 'chromium']);
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stderr, /slurm: run-layers as 4 tasks: job array \d+ \(task k runs shard k\/4/);
  assert.match(r.stderr, /slurm: run-layers, 4 shards: 4 done; merge job \d+: done/, 'progress until the merge is done');
  assert.match(r.stdout, /^4\/4 +done +\d+_4 +1 /m);

  const sub = readSubmission(data);
  assert.equal(sub.submissions.length, 1);
  for (let k = 1; k <= 4; k++) {
    const note = readNote(dataPaths(data).taskNote(k))!;
    assert.equal(note.exit, 0);
    assert.equal(note.job, `${sub.submissions[0]!.array_job}_${k}`, `task ${k} ran shard ${k}`);
    const starts = readRunLog(runOutputs(dataPaths(data).shardRoot(k)).runLog()).filter((l) => l.event === 'start');
    assert.deepEqual(starts.map((l) => l.selection), [`--shard ${k}/4`], `task ${k} of the array ran shard ${k}/4, in its own data root`);
  }
  assert.equal(readNote(dataPaths(data).mergeNote)!.exit, 0);
  const merged = mergedRun(into);
  assert.deepEqual(merged.map(timesAside), reference.map(timesAside), 'row for row the one-machine run, times and run ids aside');
});

test('a second array: a task cancelled mid-run and one requeued mid-run; the requeued one resumes, only the cancelled shard is resubmitted; every row once', async () => {
  const data = path.join(work, 'array-2');
  const into = path.join(work, 'merged-2');
  const submitted = await cli(['slurm', '--target', 'run-layers', '--shards', '4', '--cpus-per-task', '1', '--time', '10:00', '--data', data, '--into', into, '--', '--browser', 'chromium']);
  assert.equal(submitted.exitCode, 0, submitted.stderr);
  const array = readSubmission(data).submissions[0]!.array_job!;
  const env = { ...process.env, ...clusterEnv(c) };

  // shard 1: cancelled once it has a row
  await untilRows(data, 1, 1);
  await runCommand('scancel', [`${array}_1`], { env });
  // shard 2: requeued once it has a row (as Slurm does after a lost node), and let start again at once
  // (a requeued job waits for a begin time a while ahead)
  await untilRows(data, 2, 1);
  await runCommand('scontrol', ['requeue', `${array}_2`], { env });
  let pending = false;
  for (let i = 0; i < 150; i++) {
    const [state, reason] = (await runCommand('squeue', ['-h', '-r', '-j', `${array}_2`, '-o', '%T %r'], { env })).trim().split(' ');
    if (state === 'PENDING') {
      pending = true;
      if (reason === 'BeginTime') await runCommand('scontrol', ['update', `JobId=${array}_2`, 'StartTime=now'], { env }).catch(() => undefined);
    } else if (pending) break; // running again
    await sleep(200);
  }
  assert.ok(pending, 'the requeued task went back to the queue');

  const mid = await snapshot(data);
  assert.equal(mid.shards[0]!.state, 'failed', `the cancelled shard is found: ${JSON.stringify(mid.shards[0])}`);
  assert.match(mid.shards[0]!.detail, /CANCELLED/);
  const status = await cli(['slurm-status', '--data', data]);
  assert.match(status.stdout, /^1\/4 +failed +\S+ .*CANCELLED/m, status.stdout);

  const again = await cli(['slurm-resubmit', '--data', data, '--wait']);
  assert.equal(again.exitCode, 0, again.stderr);
  assert.match(again.stderr, /slurm: shard 1 of 4 again as job array \d+/, `only the cancelled shard is submitted again; the status before it:\n${status.stdout}\nwhat slurm-resubmit printed:\n${again.stderr}`);
  const sub = readSubmission(data);
  assert.equal(sub.submissions.length, 2);
  assert.deepEqual(sub.submissions[1]!.shards, [1]);

  // the requeued task ran twice, as one task, and resumed its run file; the resubmitted shard resumed its own
  const requeued = readNote(dataPaths(data).taskNote(2))!;
  assert.equal(requeued.restarts, 1, 'shard 2 was requeued once');
  assert.equal(requeued.exit, 0);
  for (const k of [1, 2]) {
    const log = readRunLog(runOutputs(dataPaths(data).shardRoot(k)).runLog());
    const starts = log.filter((l) => l.event === 'start');
    assert.equal(starts.length, 2, `shard ${k}: the stopped session and the one that finished it`);
    assert.ok(starts[1]!.rows >= 1, `shard ${k}: the second session resumed after the rows on disk`);
    assert.equal(new Set(starts.map((l) => l.file)).size, 1, `shard ${k}: one run file`);
  }
  assert.equal(readNote(dataPaths(data).taskNote(1))!.job, `${sub.submissions[1]!.array_job}_1`);

  const merged = mergedRun(into);
  assert.deepEqual(merged.map(unitKey), planKeys(), 'every unit, once, in the plan\'s order');
});
