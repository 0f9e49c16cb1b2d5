// make tasks: generate the seeded `layers` conditions into data/tasks/layers.jsonl.
// Reads: nothing but the seed. Writes: data/tasks/layers.jsonl (byte-identical for the same seed).
import { main } from '../../core/cli.ts';
import { generateLayersTasks, DEFAULT_SEED } from './generate.ts';
import { layersTaskFile } from './read-tasks.ts';
import { checkOption, jsonlOf, writeGenerated } from '../kernel/generated.ts';

await main({
  name: 'make tasks',
  summary: 'generate the 288 seeded `layers` conditions into data/tasks/layers.jsonl (the same seed gives the same bytes)',
  options: {
    seed: { type: 'string', default: DEFAULT_SEED, help: 'the generator seed (prereg/layers.md names the registered one)' },
    ...checkOption,
  },
  async run(values) {
    const tasks = generateLayersTasks(values.seed);
    return writeGenerated(layersTaskFile(), jsonlOf('layers-task', tasks, 'generated task'), { what: `${tasks.length} conditions`, check: values.check });
  },
});
