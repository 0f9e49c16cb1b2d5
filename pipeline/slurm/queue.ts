// Slurm's own commands, each run to its end (core/command.ts): sbatch to submit, squeue to see the
// queue, scancel. Polling squeue rather than `sbatch --wait`, which notices an end late.
import { runCommand } from '../../core/command.ts';

/** One job or array task as squeue shows it: its id (`12` or `12_3`), Slurm's state, the reason, the node. */
export interface QueueEntry { id: string; state: string; reason: string; node: string }

/** Every job of this user that slurmctld still knows (pending, running, and ended ones for MinJobAge), array tasks one by one. */
export async function readQueue(env: NodeJS.ProcessEnv = process.env): Promise<Map<string, QueueEntry>> {
  const out = await runCommand('squeue', ['--me', '-h', '-r', '-t', 'all', '-o', '%i|%T|%r|%N'], { env, hint: 'is Slurm installed and its controller reachable (SLURM_CONF)?' });
  const entries = new Map<string, QueueEntry>();
  for (const line of out.split('\n')) {
    const [id, state, reason, node] = line.trim().split('|');
    if (id && state) entries.set(id, { id, state, reason: reason ?? '', node: node ?? '' });
  }
  return entries;
}

/** sbatch --parsable …: the new job's id (without a `;cluster` suffix). */
export async function sbatch(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const out = await runCommand('sbatch', ['--parsable', ...args], { env, hint: 'is Slurm installed and its controller reachable (SLURM_CONF)?' });
  const id = out.trim().split(';')[0]!;
  if (!/^\d+$/.test(id)) throw new Error(`sbatch --parsable printed ${JSON.stringify(out)}, not a job id`);
  return id;
}

export async function scancel(ids: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (ids.length) await runCommand('scancel', ids, { env });
}

/** Slurm's array syntax for a list of task ids: [1,2,3,5] → "1-3,5". */
export function arraySpec(ids: number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** How Slurm's states read for a task of ours. */
export type QueueLife = 'pending' | 'running' | 'completed' | 'failed';
export function lifeOf(state: string): QueueLife {
  if (/^(PENDING|REQUEUED|REQUEUE_HOLD|REQUEUE_FED|CONFIGURING|RESV_DEL_HOLD|SPECIAL_EXIT)$/.test(state)) return 'pending';
  if (/^(RUNNING|COMPLETING|STAGE_OUT|SIGNALING|SUSPENDED|RESIZING|STOPPED)$/.test(state)) return 'running';
  if (state === 'COMPLETED') return 'completed';
  return 'failed'; // CANCELLED, FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, REVOKED
}
