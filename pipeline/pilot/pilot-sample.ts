// make pilot-sample: draw the planning pilot's 30 card conditions into data/tasks/pilot-sample.jsonl.
// Reads: data/tasks/layers.jsonl and the seed. Writes: data/tasks/pilot-sample.jsonl (byte-identical
// for the same seed and tasks); --check writes nothing and compares.
import { main } from '../../core/cli.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { drawPilotSample, pilotSampleFile, PILOT_SEED } from './sample.ts';
import { checkOption, jsonlOf, writeGenerated } from '../kernel/generated.ts';

await main({
  name: 'make pilot-sample',
  summary: 'draw the planning pilot\'s 30 card conditions (5 baseline, 5 per layer) into data/tasks/pilot-sample.jsonl',
  options: {
    seed: { type: 'string', default: PILOT_SEED, help: 'the draw\'s seed (prereg/layers-pilot.md names the registered one)' },
    ...checkOption,
  },
  async run(values) {
    const sample = drawPilotSample(readLayersTasks(), values.seed);
    return writeGenerated(pilotSampleFile(), jsonlOf('pilot-sample', sample, 'drawn sample'), { what: `${sample.length} conditions`, check: values.check });
  },
});
