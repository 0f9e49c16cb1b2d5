// Submitting a run target (or the whole rerun) to Slurm as a job array, and again what is missing:
//
//   submit     gate (the frozen inputs, before anything is queued) ─▶ sbatch --array=1-N shard.sbatch
//              ─▶ sbatch --dependency=afterok:<array> --kill-on-invalid-dep=yes merge.sbatch
//              ─▶ <data>/slurm.json
//   resubmit   the shards that failed or never ran (status.ts) ─▶ an array of those alone, N kept
//              ─▶ a merge job after it and after the tasks still queued; the old merge job, if still
//              waiting, cancelled ─▶ <data>/slurm.json gets the submission
//   watch      squeue and the notes every second: a progress line on each change, until settled
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot, outputRoot, root } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { RStackError, UsageError } from '../../core/errors.ts';
import { gate } from '../kernel/gate.ts';
import { codeState } from '../kernel/run-log.ts';
import { parseBrowserName } from '../browser/launch.ts';
import { arraySpec, readQueue, sbatch, scancel } from './queue.ts';
import { checkTargetArgs, dataPaths, readSubmission, slurmTargets, writeSubmission, type SlurmArraySubmission, type SlurmSubmission, type SlurmTarget } from './submission.ts';
import { mergeStatus, progressLine, settled, shardStatuses, statusTable, type MergeStatus, type ShardStatus } from './status.ts';

export const shardScript = path.join(codeRoot, 'deploy', 'slurm', 'shard.sbatch');
export const mergeScript = path.join(codeRoot, 'deploy', 'slurm', 'merge.sbatch');

export interface SubmitRequest {
  target: SlurmTarget;
  args: string[];
  shards: number;
  data: string;
  /** where the merge writes (default: this command's output root; reproduce: <data>/all) */
  into?: string;
  partition: string | null;
  time: string;
  mergeTime: string;
  cpusPerTask: number;
  requeue: boolean;
  exclusive: boolean;
  sbatch: string[];
}

/** The environment sbatch exports to the jobs (--export=ALL): ours, without a scratch folder (each task names its own). */
function jobEnv(): NodeJS.ProcessEnv {
  const { RSTACK_SCRATCH: _scratch, ...env } = process.env;
  return env;
}

/** The flags every job of the submission shares. */
function commonFlags(sub: SlurmSubmission, time: string): string[] {
  const o = sub.options;
  return [
    `--chdir=${sub.code_root}`, '--export=ALL', `--cpus-per-task=${o.cpus_per_task}`, `--time=${time}`,
    ...(o.partition ? [`--partition=${o.partition}`] : []), ...(o.exclusive ? ['--exclusive'] : []), ...o.sbatch,
  ];
}

/** Queues an array of the shards (none: the merge job alone) and a merge job after it and `after`. */
async function queueShards(sub: SlurmSubmission, shards: number[], after: string[]): Promise<SlurmArraySubmission> {
  const env = jobEnv();
  const name = `rstack-${sub.target}`;
  const paths = dataPaths(sub.data);
  fs.mkdirSync(paths.logs, { recursive: true });
  let array: string | null = null;
  if (shards.length) {
    array = await sbatch([
      `--job-name=${name}`, `--array=${arraySpec(shards)}`, ...commonFlags(sub, sub.options.time),
      sub.options.requeue ? '--requeue' : '--no-requeue', '--open-mode=append', `--output=${path.join(paths.logs, 'shard-%a.out')}`,
      shardScript, sub.data, String(sub.shards), sub.target, ...sub.args,
    ], env);
  }
  const deps = [...(array ? [array] : []), ...after];
  try {
    const merge = await sbatch([
      `--job-name=${name}-merge`, ...(deps.length ? [`--dependency=afterok:${deps.join(':')}`, '--kill-on-invalid-dep=yes'] : []),
      ...commonFlags(sub, sub.options.merge_time), '--open-mode=append', `--output=${path.join(paths.logs, 'merge-%j.out')}`,
      mergeScript, sub.data,
    ], env);
    return { at: new Date().toISOString(), array_job: array, merge_job: merge, shards: [...shards].sort((a, b) => a - b), after };
  } catch (error) {
    // an array without its merge job is half a submission: take it back
    if (array) await scancel([array], env).catch(() => undefined);
    throw error;
  }
}

/** The target's flags as every task runs them: a layers arm's browser made explicit, so tasks and merge agree whatever their environment. */
function taskArgs(target: SlurmTarget, args: string[]): string[] {
  const arm = slurmTargets[target].arm;
  const hasBrowser = args.some((a) => a === '--browser' || a.startsWith('--browser='));
  return (arm === 'main' || arm === 'horizon') && !hasBrowser ? [...args, '--browser', parseBrowserName(undefined)] : args;
}

export async function submit(r: SubmitRequest): Promise<SlurmSubmission> {
  checkTargetArgs(r.target, r.args);
  const data = path.resolve(r.data);
  if (fs.existsSync(dataPaths(data).submission)) throw new UsageError(messages.slurm.alreadySubmitted(data));
  // refused here, not in N queued tasks: the frozen inputs must match the ledger head
  await gate();
  const into = path.resolve(r.into ?? (r.target === 'reproduce' ? dataPaths(data).all : outputRoot()));
  fs.mkdirSync(data, { recursive: true });
  const sub: SlurmSubmission = {
    schema: 'slurm-submission/1', target: r.target, args: taskArgs(r.target, r.args), shards: r.shards, data, into, code_root: codeRoot, commit: codeState().commit,
    options: { partition: r.partition, time: r.time, merge_time: r.mergeTime, cpus_per_task: r.cpusPerTask, requeue: r.requeue, exclusive: r.exclusive, sbatch: r.sbatch },
    submissions: [],
  };
  sub.submissions.push(await queueShards(sub, Array.from({ length: r.shards }, (_, i) => i + 1), []));
  writeSubmission(sub);
  log({ kind: 'info', message: messages.slurm.submitted(sub, sub.submissions[0]!, into === root()) });
  return sub;
}

export interface Snapshot { sub: SlurmSubmission; shards: ShardStatus[]; merge: MergeStatus }

export async function snapshot(data: string): Promise<Snapshot> {
  const sub = readSubmission(path.resolve(data));
  const queue = await readQueue();
  return { sub, shards: shardStatuses(sub, queue), merge: mergeStatus(sub, queue) };
}

/** Runs again the shards that failed or never ran, with a merge job after them; returns null when nothing needs it. */
export async function resubmit(data: string): Promise<SlurmArraySubmission | null> {
  const { sub, shards, merge } = await snapshot(data);
  const again = shards.filter((s) => s.state === 'failed' || s.state === 'missing').map((s) => s.shard);
  const queued = shards.filter((s) => s.state === 'pending' || s.state === 'running');
  if (!again.length && (merge.state === 'done' || merge.state === 'waiting' || merge.state === 'running')) {
    log({ kind: 'info', message: messages.slurm.nothingToResubmit(merge.state) });
    return null;
  }
  // the merge job that waited for the failed array would be cancelled by Slurm once that array ends; one merge job at a time
  if (merge.state === 'waiting' && merge.job) await scancel([merge.job], jobEnv());
  const s = await queueShards(sub, again, queued.map((q) => q.job!));
  sub.submissions.push(s);
  writeSubmission(sub);
  log({ kind: 'info', message: messages.slurm.resubmitted(sub, s) });
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls until the submission settles (no shard pending or running, the merge job ended), printing a
 * progress line whenever it changes (and at least every `everyMs`). Returns the last snapshot.
 */
export async function watch(data: string, options: { intervalMs?: number; everyMs?: number; timeoutMs?: number } = {}): Promise<Snapshot> {
  const deadline = options.timeoutMs ? Date.now() + options.timeoutMs : Infinity;
  let last = '';
  let printedAt = 0;
  for (;;) {
    const snap = await snapshot(data);
    const line = progressLine(snap.sub, snap.shards, snap.merge);
    if (line !== last || Date.now() - printedAt >= (options.everyMs ?? 30_000)) {
      log({ kind: 'info', message: line });
      last = line;
      printedAt = Date.now();
    }
    if (settled(snap.shards, snap.merge)) return snap;
    if (Date.now() > deadline) throw new RStackError(messages.slurm.watchTimeout(statusTable(snap.sub, snap.shards, snap.merge)));
    await sleep(options.intervalMs ?? 1000);
  }
}
