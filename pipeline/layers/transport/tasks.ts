// make tasks-transport: generate the transport arm's seeded conditions into
// data/tasks/layers-transport.jsonl (the real applications) and data/tasks/layers-transport-small.jsonl
// (the small apps); with --version 2, version 2's real-application conditions into
// data/tasks/layers-transport-v2.jsonl (its small-app conditions are version 1's file). Reads: the
// seeds, fixtures/<app>/families/*.json, the main arm's generator and the design (design.ts).
// Writes: those files (byte-identical for the same inputs).
import { main } from '../../../core/cli.ts';
import { checkOption, jsonlOf, writeGenerated } from '../../kernel/generated.ts';
import { UsageError } from '../../../core/errors.ts';
import { generateTransportTasks, transportSeed } from './generate.ts';
import { generateSmallTransportTasks, SMALL_TRANSPORT_SEED } from './small-apps.ts';
import { smallTransportTaskFile, transportTaskFile } from './arm.ts';

await main({
  name: 'make tasks-transport',
  summary: "generate the transport arm's seeded conditions (each family or small app × transport fault × severity, each designed compound pair, and their controls) into data/tasks/layers-transport.jsonl and data/tasks/layers-transport-small.jsonl",
  options: {
    version: { type: 'string', default: '1', help: 'the arm version: 1 (registered: both files) or 2 (data/tasks/layers-transport-v2.jsonl: the real-apps arm\'s version-2 families too; the small apps keep version 1\'s conditions)' },
    seed: { type: 'string', help: "the real applications' generator seed (default: the version's own; its prereg names the registered one)" },
    'small-seed': { type: 'string', default: SMALL_TRANSPORT_SEED, help: "the small apps' generator seed" },
    ...checkOption,
  },
  async run(values) {
    const version = Number(values.version);
    if (version !== 1 && version !== 2) throw new UsageError(`--version ${values.version}: 1 or 2`);
    const real = generateTransportTasks(values.seed ?? transportSeed(version), undefined, version);
    if (version >= 2) return writeGenerated(transportTaskFile(version), jsonlOf('layers-real-apps-task', real, 'generated task'), { what: `${real.length} conditions`, check: values.check });
    const small = generateSmallTransportTasks(values['small-seed']);
    const a = await writeGenerated(transportTaskFile(), jsonlOf('layers-real-apps-task', real, 'generated task'), { what: `${real.length} conditions`, check: values.check });
    const b = await writeGenerated(smallTransportTaskFile(), jsonlOf('layers-task', small, 'generated task'), { what: `${small.length} conditions`, check: values.check });
    return Math.max(a, b);
  },
});
