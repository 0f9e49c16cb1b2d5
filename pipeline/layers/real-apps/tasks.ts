// make tasks-real-apps: generate the real-applications arm's seeded conditions into
// data/tasks/layers-real-apps.jsonl. Reads: the seed and fixtures/<app>/families/*.json.
// Writes: data/tasks/layers-real-apps.jsonl (byte-identical for the same seed and family files).
import { main } from '../../../core/cli.ts';
import { checkOption, jsonlOf, writeGenerated } from '../../kernel/generated.ts';
import { generateRealAppsTasks, REAL_APPS_SEED } from './generate.ts';
import { realAppsTaskFile } from './arm.ts';

await main({
  name: 'make tasks-real-apps',
  summary: "generate the real-applications arm's seeded conditions (WordPress and MediaWiki task families × layer × severity) into data/tasks/layers-real-apps.jsonl",
  options: {
    seed: { type: 'string', default: REAL_APPS_SEED, help: 'the generator seed (prereg/layers-real-apps.md names the registered one)' },
    ...checkOption,
  },
  async run(values) {
    const tasks = generateRealAppsTasks(values.seed);
    return writeGenerated(realAppsTaskFile(), jsonlOf('layers-real-apps-task', tasks, 'generated task'), { what: `${tasks.length} conditions`, check: values.check });
  },
});
