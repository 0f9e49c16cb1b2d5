import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { RStackError } from '../../core/errors.ts';
import type { LayersTask } from '../../core/layers.ts';

export const layersTaskFile = () => path.join(paths.tasks(), 'layers.jsonl');

/** The frozen `layers` conditions, each validated against schemas/layers-task.schema.json. */
export function readLayersTasks(file = layersTaskFile()): LayersTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks, then make freeze`, { exitCode: 2 });
  return readJsonl<LayersTask>(file, { schema: 'layers-task' });
}
