// Where every shard of a submission is: pending, running, done, failed, or missing (never started), and
// the merge job. Read from two places, as a cluster without accounting forgets an ended job:
//   squeue        what slurmctld knows now (pending and running tasks; ended ones for MinJobAge)
//   the notes     <data>/shard-k/slurm-task.json: started, and how it ended (deploy/slurm/note.sh)
// and each shard's progress from its own run log (<data>/shard-k/data/runs.jsonl): rows on disk / total.
// Each shard is judged by the newest submission that ran it (a resubmission supersedes a failed task).
import fs from 'node:fs';
import path from 'node:path';
import { countRows } from '../../core/files.ts';
import { runOutputs } from '../../core/paths.ts';
import { readRunLog } from '../kernel/run-log.ts';
import { lifeOf, type QueueEntry } from './queue.ts';
import { dataPaths, readNote, type SlurmSubmission, type SlurmTaskNote } from './submission.ts';

export type ShardState = 'pending' | 'running' | 'done' | 'failed' | 'missing';

export interface Progress { run: string; rows: number; total: number | null }

export interface ShardStatus {
  shard: number;
  state: ShardState;
  /** the task that runs (or ran) it: <array>_<k> */
  job: string | null;
  /** why it is in that state, in words: "exit 143", "CANCELLED", "started, never ended" */
  detail: string;
  host: string | null;
  /** the shard's runs so far: one per earlier submission that ran it, and this task's (each Slurm requeue one more) */
  attempts: number;
  progress: Progress | null;
}

export type MergeState = 'waiting' | 'running' | 'done' | 'failed' | 'cancelled' | 'missing';
export interface MergeStatus { state: MergeState; job: string | null; detail: string }

/** The newest submission that runs shard k, and its task's id. */
export function taskOf(sub: SlurmSubmission, k: number): string | null {
  const s = [...sub.submissions].reverse().find((x) => x.array_job !== null && x.shards.includes(k));
  return s ? `${s.array_job}_${k}` : null;
}

/** The shard's own run log: the run its last session wrote, its rows on disk and its total. */
export function shardProgress(root: string): Progress | null {
  const log = runOutputs(root).runLog();
  if (!fs.existsSync(log)) return null;
  let start;
  try {
    start = readRunLog(log).filter((l) => l.event === 'start').at(-1);
  } catch {
    return null; // being appended to just now
  }
  if (!start) return null;
  return { run: start.run_id, rows: countRows(path.join(root, start.file)), total: start.total ?? null };
}

/** One shard's state from the queue's entry for its task and its note (pure); earlier: the runs of it by earlier submissions' tasks. */
export function judgeShard(k: number, job: string | null, entry: QueueEntry | undefined, note: SlurmTaskNote | null, progress: Progress | null, earlier = 0): ShardStatus {
  const own = note && note.job === job ? note : null;
  const base = { shard: k, job, host: own?.host ?? (entry?.node || null), attempts: earlier + (own ? own.restarts + 1 : 0), progress };
  if (job === null) return { ...base, state: 'missing', detail: 'never submitted' };
  if (entry) {
    const life = lifeOf(entry.state);
    if (life === 'pending') return { ...base, state: 'pending', detail: entry.reason && entry.reason !== 'None' ? entry.reason : entry.state };
    if (life === 'running') return { ...base, state: 'running', detail: entry.state === 'RUNNING' ? '' : entry.state };
    if (life === 'failed') return { ...base, state: 'failed', detail: `${entry.state}${own?.exit !== undefined ? `, exit ${own.exit}` : ''}` };
  }
  if (own?.exit === 0) return { ...base, state: 'done', detail: '' };
  if (own?.exit !== undefined) return { ...base, state: 'failed', detail: `exit ${own.exit}${own.exit === 143 ? ' (TERM: cancelled or out of time)' : ''}` };
  if (own) return { ...base, state: 'failed', detail: 'started, never ended: killed outright or its node lost' };
  if (entry && lifeOf(entry.state) === 'completed') return { ...base, state: 'done', detail: '' };
  return { ...base, state: 'missing', detail: 'not in the queue, and it never started' };
}

export function shardStatuses(sub: SlurmSubmission, queue: Map<string, QueueEntry>): ShardStatus[] {
  const paths = dataPaths(sub.data);
  return Array.from({ length: sub.shards }, (_, i) => {
    const k = i + 1;
    const job = taskOf(sub, k);
    // a resubmitted shard ran before, once per earlier array that held it (their notes are replaced by the newest task's)
    const earlier = Math.max(0, sub.submissions.filter((x) => x.array_job !== null && x.shards.includes(k)).length - 1);
    return judgeShard(k, job, job ? queue.get(job) : undefined, readNote(paths.taskNote(k)), shardProgress(paths.shardRoot(k)), earlier);
  });
}

/** The newest merge job's state (pure, from its queue entry and its note). */
export function judgeMerge(job: string | null, entry: QueueEntry | undefined, note: SlurmTaskNote | null): MergeStatus {
  const own = note && note.job === job ? note : null;
  if (job === null) return { state: 'missing', job, detail: 'never submitted' };
  if (entry) {
    const life = lifeOf(entry.state);
    if (life === 'pending') return { state: 'waiting', job, detail: entry.reason === 'Dependency' ? 'for the shards' : entry.reason };
    if (life === 'running') return { state: 'running', job, detail: '' };
    if (life === 'failed') {
      const never = /DependencyNeverSatisfied/.test(entry.reason);
      return { state: never ? 'cancelled' : 'failed', job, detail: never ? 'a shard did not succeed' : `${entry.state}${own?.exit !== undefined ? `, exit ${own.exit}` : ''}` };
    }
  }
  if (own?.exit === 0) return { state: 'done', job, detail: '' };
  if (own?.exit !== undefined) return { state: 'failed', job, detail: `exit ${own.exit}` };
  if (own) return { state: 'failed', job, detail: 'started, never ended' };
  if (entry && lifeOf(entry.state) === 'completed') return { state: 'done', job, detail: '' };
  return { state: 'missing', job, detail: 'not in the queue, and it never started' };
}

export function mergeStatus(sub: SlurmSubmission, queue: Map<string, QueueEntry>): MergeStatus {
  const job = sub.submissions.at(-1)!.merge_job;
  return judgeMerge(job, queue.get(job), readNote(dataPaths(sub.data).mergeNote));
}

/** Whether nothing more will happen without us: no shard pending or running, and the merge job ended. */
export const settled = (shards: ShardStatus[], merge: MergeStatus) =>
  !shards.some((s) => s.state === 'pending' || s.state === 'running') && !['waiting', 'running'].includes(merge.state);

const count = (shards: ShardStatus[], state: ShardState) => shards.filter((s) => s.state === state).length;

/** One line: how many shards are in each state, the running ones' rows, the merge. */
export function progressLine(sub: SlurmSubmission, shards: ShardStatus[], merge: MergeStatus): string {
  const states: ShardState[] = ['done', 'running', 'pending', 'failed', 'missing'];
  const parts = states.filter((s) => count(shards, s)).map((s) => {
    const n = count(shards, s);
    if (s !== 'running') return `${n} ${s}${s === 'failed' || s === 'missing' ? ` (${shards.filter((x) => x.state === s).map((x) => x.shard).join(', ')})` : ''}`;
    const rows = shards.filter((x) => x.state === 'running').map((x) => `shard ${x.shard}: ${x.progress ? `${x.progress.rows}/${x.progress.total ?? '?'} rows` : 'starting'}`);
    return `${n} running (${rows.join(', ')})`;
  });
  return `slurm: ${sub.target}, ${sub.shards} shards: ${parts.join(', ')}; merge job ${merge.job ?? '–'}: ${merge.state}${merge.detail ? ` (${merge.detail})` : ''}`;
}

/** The table slurm-status prints: one line per shard, then the merge job. */
export function statusTable(sub: SlurmSubmission, shards: ShardStatus[], merge: MergeStatus): string {
  const head = ['shard', 'state', 'task', 'attempts', 'host', 'rows', 'detail'];
  const body = shards.map((s) => [
    `${s.shard}/${sub.shards}`, s.state, s.job ?? '–', String(s.attempts), s.host ?? '–',
    s.progress ? `${s.progress.rows}/${s.progress.total ?? '?'}` : '–', s.detail,
  ]);
  body.push(['merge', merge.state, merge.job ?? '–', '', '', '', merge.detail]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}
