// make pilot-sample: draw the planning pilot's 30 card conditions into data/tasks/pilot-sample.jsonl.
// Reads: data/tasks/layers.jsonl and the seed. Writes: data/tasks/pilot-sample.jsonl (byte-identical
// for the same seed and tasks); --check writes nothing and compares.
import fs from 'node:fs';
import { main } from '../core/cli.ts';
import { toLine } from '../core/jsonl.ts';
import { validate } from '../core/validate.ts';
import { rel } from '../core/paths.ts';
import { readLayersTasks } from './layers/read-tasks.ts';
import { drawPilotSample, pilotSampleFile, PILOT_SEED } from './pilot/sample.ts';
import { writeFileAtomic } from './kernel/files.ts';

await main({
  name: 'make pilot-sample',
  summary: 'draw the planning pilot\'s 30 card conditions (5 baseline, 5 per layer) into data/tasks/pilot-sample.jsonl',
  options: {
    seed: { type: 'string', default: PILOT_SEED, help: 'the draw\'s seed (prereg/layers-pilot.md names the registered one)' },
    check: { type: 'boolean', default: false, help: 'write nothing; exit 1 if the file would change' },
  },
  async run(values) {
    const sample = drawPilotSample(readLayersTasks(), values.seed);
    const text = sample.map((s, i) => (validate('pilot-sample', s, { file: 'drawn sample', line: i + 1 }), toLine(s))).join('');
    const file = pilotSampleFile();
    const same = fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text;
    if (values.check) {
      process.stdout.write(`${rel(file)}: ${same ? 'byte-identical to a fresh draw' : 'DIFFERS from a fresh draw'}\n`);
      return same ? 0 : 1;
    }
    if (!same) writeFileAtomic(file, text);
    process.stdout.write(`${rel(file)}: ${sample.length} conditions${same ? ' (unchanged)' : ' (written)'}\n`);
  },
});
