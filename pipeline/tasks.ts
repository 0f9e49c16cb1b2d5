// make tasks: generate the seeded `layers` conditions into data/tasks/layers.jsonl.
// Reads: nothing but the seed. Writes: data/tasks/layers.jsonl (byte-identical for the same seed).
import fs from 'node:fs';
import { main } from '../core/cli.ts';
import { toLine } from '../core/jsonl.ts';
import { validate } from '../core/validate.ts';
import { rel } from '../core/paths.ts';
import { generateLayersTasks, DEFAULT_SEED } from './layers/tasks.ts';
import { layersTaskFile } from './layers/read-tasks.ts';
import { writeFileAtomic } from './kernel/files.ts';

await main({
  name: 'make tasks',
  summary: 'generate the 288 seeded `layers` conditions into data/tasks/layers.jsonl (the same seed gives the same bytes)',
  options: {
    seed: { type: 'string', default: DEFAULT_SEED, help: 'the generator seed (prereg/layers.md names the registered one)' },
    check: { type: 'boolean', default: false, help: 'write nothing; exit 1 if the file would change' },
  },
  async run(values) {
    const tasks = generateLayersTasks(values.seed);
    const text = tasks.map((t, i) => (validate('layers-task', t, { file: 'generated task', line: i + 1 }), toLine(t))).join('');
    const file = layersTaskFile();
    const same = fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text;
    if (values.check) {
      process.stdout.write(`${rel(file)}: ${same ? 'byte-identical to a fresh generation' : 'DIFFERS from a fresh generation'}\n`);
      return same ? 0 : 1;
    }
    if (!same) writeFileAtomic(file, text);
    process.stdout.write(`${rel(file)}: ${tasks.length} conditions${same ? ' (unchanged)' : ' (written)'}\n`);
  },
});
