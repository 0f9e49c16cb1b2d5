// shares the machine: pure functions and a temp folder; no browser, no cluster, nothing timed.
// How a shard's state is read from squeue's entry for its task and the task's note (pipeline/slurm/
// status.ts), and the Slurm array syntax of a resubmission; the flags a submission refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { judgeMerge, judgeShard, progressLine, settled, shardStatuses, taskOf } from '../../../pipeline/slurm/status.ts';
import { arraySpec, type QueueEntry } from '../../../pipeline/slurm/queue.ts';
import { checkTargetArgs, dataPaths, type SlurmSubmission, type SlurmTaskNote } from '../../../pipeline/slurm/submission.ts';
import { UsageError } from '../../../core/errors.ts';

const entry = (id: string, state: string, reason = 'None'): QueueEntry => ({ id, state, reason, node: 'n1' });
const note = (job: string, over: Partial<SlurmTaskNote> = {}): SlurmTaskNote => ({
  schema: 'slurm-task/1', role: 'shard', shard: 2, shards: 4, job, job_id: '40', restarts: 0, host: 'n1', started_at: '2026-12-01T00:00:00Z', ...over,
});
const ended = (job: string, exit: number, restarts = 0) => note(job, { ended_at: '2026-12-01T00:01:00Z', exit, restarts });

test('a shard\'s state: the queue while it knows the task, else the task\'s own note', () => {
  const job = '12_2';
  assert.equal(judgeShard(2, job, entry(job, 'PENDING', 'Resources'), null, null).state, 'pending');
  assert.equal(judgeShard(2, job, entry(job, 'PENDING', 'Resources'), null, null).detail, 'Resources');
  assert.equal(judgeShard(2, job, entry(job, 'RUNNING'), note(job), null).state, 'running');
  // requeued after a failure: pending again, whatever its last attempt's note says
  assert.equal(judgeShard(2, job, entry(job, 'PENDING', 'BeginTime'), ended(job, 143), null).state, 'pending');
  const cancelled = judgeShard(2, job, entry(job, 'CANCELLED'), ended(job, 143), null);
  assert.deepEqual([cancelled.state, cancelled.detail], ['failed', 'CANCELLED, exit 143']);
  assert.equal(judgeShard(2, job, entry(job, 'COMPLETED'), ended(job, 0), null).state, 'done');
  // slurmctld has forgotten it (no accounting): the note decides
  assert.equal(judgeShard(2, job, undefined, ended(job, 0, 1), null).state, 'done');
  assert.equal(judgeShard(2, job, undefined, ended(job, 0, 1), null).attempts, 2);
  assert.match(judgeShard(2, job, undefined, ended(job, 143), null).detail, /^exit 143 \(TERM/);
  const killed = judgeShard(2, job, undefined, note(job), null);
  assert.deepEqual([killed.state, killed.detail], ['failed', 'started, never ended: killed outright or its node lost']);
  // a note of an earlier submission's task is not this task's: resubmitted, not started yet, forgotten
  assert.equal(judgeShard(2, '15_2', undefined, ended(job, 143), null).state, 'missing');
  assert.equal(judgeShard(2, null, undefined, null, null).state, 'missing');
});

test('the merge job: waiting on the array, cancelled when a shard failed, done by its note', () => {
  assert.equal(judgeMerge('13', entry('13', 'PENDING', 'Dependency'), null).state, 'waiting');
  const never = judgeMerge('13', entry('13', 'CANCELLED', 'DependencyNeverSatisfied'), null);
  assert.deepEqual([never.state, never.detail], ['cancelled', 'a shard did not succeed']);
  assert.equal(judgeMerge('13', undefined, { ...ended('13', 0), role: 'merge', shard: null, shards: null }).state, 'done');
  assert.equal(judgeMerge('13', undefined, { ...ended('13', 2), role: 'merge', shard: null, shards: null }).state, 'failed');
});

test('each shard is judged by the newest submission that ran it; the progress line names the running shards\' rows', (t) => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-slurm-status-'));
  t.after(() => fs.rmSync(data, { recursive: true, force: true }));
  const sub: SlurmSubmission = {
    schema: 'slurm-submission/1', target: 'run-horizon', args: ['--browser', 'chromium'], shards: 3, data, into: data, code_root: '/c', commit: null,
    options: { partition: null, time: '1:00:00', merge_time: '0:30:00', cpus_per_task: 1, requeue: true, exclusive: false, sbatch: [] },
    submissions: [
      { at: '2026-12-01T00:00:00Z', array_job: '12', merge_job: '13', shards: [1, 2, 3], after: [] },
      { at: '2026-12-01T00:05:00Z', array_job: '20', merge_job: '21', shards: [2], after: ['12_3'] },
    ],
  };
  assert.equal(taskOf(sub, 1), '12_1');
  assert.equal(taskOf(sub, 2), '20_2');
  const paths = dataPaths(data);
  for (const k of [1, 2, 3]) fs.mkdirSync(paths.shardRoot(k), { recursive: true });
  fs.writeFileSync(paths.taskNote(1), JSON.stringify(ended('12_1', 0)));
  fs.writeFileSync(paths.taskNote(2), JSON.stringify(ended('12_2', 143)));
  // shard 3 running: its run log and 2 of its 5 rows
  const root3 = paths.shardRoot(3);
  fs.mkdirSync(path.join(root3, 'data', 'raw', 'layers', 'horizon'), { recursive: true });
  fs.writeFileSync(path.join(root3, 'data', 'raw', 'layers', 'horizon', 'r.jsonl'), '{}\n{}\n{"torn');
  fs.writeFileSync(path.join(root3, 'data', 'runs.jsonl'), JSON.stringify({
    schema: 'run-log/1', event: 'start', session: 'r@t', run_id: 'r', study: 'layers', arm: 'horizon', browser: 'chromium', file: 'data/raw/layers/horizon/r.jsonl',
    registered: true, rows: 0, selection: '--shard 3/3', redo: null, total: 5, workers: 1, at: '2026-12-01T00:00:00.000Z', commit: null, dirty: false, load: [0, 0, 0], pid: 1, host: 'n1',
  }) + '\n');
  const queue = new Map([['20_2', entry('20_2', 'PENDING', 'Priority')], ['12_3', entry('12_3', 'RUNNING')], ['21', entry('21', 'PENDING', 'Dependency')]]);
  const shards = shardStatuses(sub, queue);
  assert.deepEqual(shards.map((s) => s.state), ['done', 'pending', 'running']);
  // attempts are the shard's runs: shard 2 ran once in array 12 (exit 143) and waits in array 20; shard 3 has not written its note yet
  assert.deepEqual(shards.map((s) => s.attempts), [1, 1, 0]);
  assert.deepEqual(shards[2]!.progress, { run: 'r', rows: 2, total: 5 }, 'rows on disk: a torn last line is not one');
  const merge = judgeMerge('21', queue.get('21'), null);
  assert.equal(settled(shards, merge), false);
  assert.equal(progressLine(sub, shards, merge), 'slurm: run-horizon, 3 shards: 1 done, 1 running (shard 3: 2/5 rows), 1 pending; merge job 21: waiting (for the shards)');
});

test('array syntax of a resubmission, and the flags a submission refuses', () => {
  assert.equal(arraySpec([1, 2, 3, 4]), '1-4');
  assert.equal(arraySpec([5, 1, 3, 2]), '1-3,5');
  assert.equal(arraySpec([2]), '2');
  assert.throws(() => checkTargetArgs('run-horizon', ['--shard', '1/2']), (e: unknown) => e instanceof UsageError && /--shard is the tasks' own/.test(e.message));
  assert.throws(() => checkTargetArgs('reproduce', ['--scratch=/x']), /--scratch is the tasks' own/);
  assert.throws(() => checkTargetArgs('run-layers', ['--smoke']), /--smoke: a slice is a smoke run/);
  assert.doesNotThrow(() => checkTargetArgs('run-layers', ['--browser', 'firefox', '--workers', '2']));
});
