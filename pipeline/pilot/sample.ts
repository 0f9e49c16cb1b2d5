// The pilot's sample: 30 configuration-card conditions of data/tasks/layers.jsonl, five baseline and
// five per fault layer, drawn by a seed (prereg/layers-pilot.md) and written to
// data/tasks/pilot-sample.jsonl, which is frozen with the tasks. Each line names one exact condition
// by its id and the sha256 of its task line, so a changed task file cannot pass for the sample.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { readJsonl, toLine } from '../../core/jsonl.ts';
import { sha256 } from '../../core/hash.ts';
import { RStackError } from '../../core/errors.ts';
import { layers, type LayersTask } from '../../core/layers.ts';
import { rng } from '../kernel/random.ts';

export const PILOT_SEED = 'rstackbench-layers-pilot-v1';
export const PER_LAYER = 5;
export const pilotSampleFile = () => path.join(paths.tasks(), 'pilot-sample.jsonl');

import type { PilotSampleLine } from '../../core/contracts.ts';

export type { PilotSampleLine } from '../../core/contracts.ts';

export const taskSha256 = (task: LayersTask) => sha256(toLine(task));

/** Five card conditions per layer (baseline first), each layer's draw from its own seeded stream. */
export function drawPilotSample(tasks: LayersTask[], seed = PILOT_SEED): PilotSampleLine[] {
  return layers.flatMap((layer) => {
    const pool = tasks.filter((t) => t.template === 'cards' && t.layer === layer);
    if (pool.length < PER_LAYER) throw new RStackError(`only ${pool.length} card conditions of layer ${layer}; the pilot draws ${PER_LAYER}`, { exitCode: 2 });
    const drawn = rng(seed, 'pilot', 'cards', layer).shuffle(pool).slice(0, PER_LAYER);
    return drawn
      .sort((a, b) => a.condition_id.localeCompare(b.condition_id))
      .map((t) => ({ schema: 'pilot-sample/1', condition_id: t.condition_id, template: 'cards', layer, severity: t.severity, seed, task_sha256: taskSha256(t) }) as const);
  });
}

export interface SampledTask { line: PilotSampleLine; task: LayersTask }

/** The frozen sample, each line joined to its condition; refuses when a condition changed since the draw. */
export function readPilotSample(tasks: LayersTask[], file = pilotSampleFile()): SampledTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make pilot-sample, then make freeze`, { exitCode: 2 });
  const byId = new Map(tasks.map((t) => [t.condition_id, t]));
  return readJsonl<PilotSampleLine>(file, { schema: 'pilot-sample' }).map((line, i) => {
    const task = byId.get(line.condition_id);
    if (!task) throw new RStackError(`${rel(file)}:${i + 1}: condition ${line.condition_id} is not in data/tasks/layers.jsonl`, { exitCode: 2 });
    if (taskSha256(task) !== line.task_sha256) throw new RStackError(`${rel(file)}:${i + 1}: condition ${line.condition_id} differs from the one drawn (task_sha256)`, { exitCode: 2 });
    return { line, task };
  });
}
