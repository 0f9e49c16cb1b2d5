// What a Slurm submission leaves in its shared data root, and the targets it takes:
//
//   <data>/slurm.json              the submission (schemas/slurm-submission.schema.json): the target, its
//                                  flags, N, the options, and each array submitted (the first, resubmissions)
//   <data>/shard-<k>/              task k's data root: data/raw, data/excluded, data/runs.jsonl, manifests/
//   <data>/shard-<k>/slurm-task.json  task k's note: started, and how it ended (deploy/slurm/note.sh)
//   <data>/slurm-merge.json        the merge job's note
//   <data>/logs/                   the tasks' and the merge job's output (sbatch --output)
//   <data>/all/                    reproduce only: the shards collected, merged and compared there
import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile, validate } from '../../core/validate.ts';
import { UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { rel } from '../../core/paths.ts';
import type { SlurmSubmission, SlurmTaskNote } from '../../core/contracts.ts';
import { writeFileAtomic } from '../kernel/files.ts';

export type { SlurmSubmission, SlurmArraySubmission, SlurmTaskNote } from '../../core/contracts.ts';
export type SlurmTarget = SlurmSubmission['target'];

/** Each target the Slurm path takes: the arm make merge joins (null: reproduce, which merges every arm itself). */
export const slurmTargets: Record<SlurmTarget, { arm: 'main' | 'horizon' | 'controlled' | 'arm-a' | 'arm-b' | null; summary: string }> = {
  'run-layers': { arm: 'main', summary: 'study layers, the 864 traces' },
  'run-horizon': { arm: 'horizon', summary: 'study layers, the 240-trace horizon ablation' },
  'run-controlled': { arm: 'controlled', summary: 'study evidence, the controlled arm (Chromium)' },
  'run-arm-a': { arm: 'arm-a', summary: 'study evidence, Arm A (Firefox)' },
  'run-arm-b': { arm: 'arm-b', summary: 'study evidence, Arm B (each task needs the WordPress site on 127.0.0.1:8471: one task per node, --exclusive)' },
  reproduce: { arm: null, summary: 'make reproduce REDO=1: every arm rerun into a scratch folder and compared with the record' },
};

export function parseTarget(value: string | undefined): SlurmTarget {
  if (value && Object.hasOwn(slurmTargets, value)) return value as SlurmTarget;
  throw new UsageError(messages.slurm.badTarget(value, Object.keys(slurmTargets)));
}

/** The flags a task adds itself, or that give it rows merge does not join: refused in a target's flags. */
export function checkTargetArgs(target: SlurmTarget, args: string[]): void {
  const own = args.find((a) => /^--(shard|scratch)(=|$)/.test(a));
  if (own) throw new UsageError(messages.slurm.ownFlag(own.split('=')[0]!));
  const slice = args.find((a) => /^--(smoke|only)(=|$)/.test(a));
  if (slice) throw new UsageError(messages.slurm.noSlice(target, slice.split('=')[0]!));
}

export const dataPaths = (data: string) => ({
  submission: path.join(data, 'slurm.json'),
  shardRoot: (k: number) => path.join(data, `shard-${k}`),
  taskNote: (k: number) => path.join(data, `shard-${k}`, 'slurm-task.json'),
  mergeNote: path.join(data, 'slurm-merge.json'),
  logs: path.join(data, 'logs'),
  all: path.join(data, 'all'),
});

export function readSubmission(data: string): SlurmSubmission {
  const file = dataPaths(data).submission;
  if (!fs.existsSync(file)) throw new UsageError(messages.slurm.noSubmission(data));
  return readJsonFile<SlurmSubmission>(file, 'slurm-submission');
}

export function writeSubmission(s: SlurmSubmission): void {
  const file = dataPaths(s.data).submission;
  writeFileAtomic(file, JSON.stringify(validate<SlurmSubmission>('slurm-submission', s, { file: rel(file) }), null, 2) + '\n');
}

/** A task's note, or null when it has written none (never started), or it cannot be read (being replaced just now). */
export function readNote(file: string): SlurmTaskNote | null {
  if (!fs.existsSync(file)) return null;
  try {
    return readJsonFile<SlurmTaskNote>(file, 'slurm-task');
  } catch {
    return null;
  }
}
