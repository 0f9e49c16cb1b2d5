// make tasks-real-apps: generate the real-applications arm's seeded conditions into
// data/tasks/layers-real-apps.jsonl. Reads: the seed and fixtures/<app>/families/*.json.
// Writes: data/tasks/layers-real-apps.jsonl (byte-identical for the same seed and family files).
import { main } from '../../../core/cli.ts';
import { checkOption, jsonlOf, writeGenerated } from '../../kernel/generated.ts';
import { UsageError } from '../../../core/errors.ts';
import { generateRealAppsTasks, realAppsSeed } from './generate.ts';
import { realAppsTaskFile } from './arm.ts';

await main({
  name: 'make tasks-real-apps',
  summary: "generate the real-applications arm's seeded conditions (WordPress and MediaWiki task families × layer × severity) into data/tasks/layers-real-apps.jsonl",
  options: {
    version: { type: 'string', default: '1', help: 'the arm version: 1 (data/tasks/layers-real-apps.jsonl, registered) or 2 (data/tasks/layers-real-apps-v2.jsonl: the seed\'s Verification, at least 24 conditions per application and layer)' },
    seed: { type: 'string', help: 'the generator seed (default: the version\'s own; its prereg names the registered one)' },
    ...checkOption,
  },
  async run(values) {
    const version = Number(values.version);
    if (version !== 1 && version !== 2) throw new UsageError(`--version ${values.version}: 1 or 2`);
    const tasks = generateRealAppsTasks(values.seed ?? realAppsSeed(version), undefined, version);
    return writeGenerated(realAppsTaskFile(version), jsonlOf('layers-real-apps-task', tasks, 'generated task'), { what: `${tasks.length} conditions`, check: values.check });
  },
});
