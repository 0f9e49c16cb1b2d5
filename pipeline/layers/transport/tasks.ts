// make tasks-transport: generate the transport arm's seeded conditions into
// data/tasks/layers-transport.jsonl (the real applications) and data/tasks/layers-transport-small.jsonl
// (the small apps). Reads: the seeds, fixtures/<app>/families/*.json, the main arm's generator and the
// design (design.ts). Writes: both files (byte-identical for the same inputs).
import { main } from '../../../core/cli.ts';
import { checkOption, jsonlOf, writeGenerated } from '../../kernel/generated.ts';
import { generateTransportTasks, TRANSPORT_SEED } from './generate.ts';
import { generateSmallTransportTasks, SMALL_TRANSPORT_SEED } from './small-apps.ts';
import { smallTransportTaskFile, transportTaskFile } from './arm.ts';

await main({
  name: 'make tasks-transport',
  summary: "generate the transport arm's seeded conditions (each family or small app × transport fault × severity, each designed compound pair, and their controls) into data/tasks/layers-transport.jsonl and data/tasks/layers-transport-small.jsonl",
  options: {
    seed: { type: 'string', default: TRANSPORT_SEED, help: "the real applications' generator seed (prereg/layers-transport.md names the registered one)" },
    'small-seed': { type: 'string', default: SMALL_TRANSPORT_SEED, help: "the small apps' generator seed" },
    ...checkOption,
  },
  async run(values) {
    const real = generateTransportTasks(values.seed);
    const small = generateSmallTransportTasks(values['small-seed']);
    const a = await writeGenerated(transportTaskFile(), jsonlOf('layers-real-apps-task', real, 'generated task'), { what: `${real.length} conditions`, check: values.check });
    const b = await writeGenerated(smallTransportTaskFile(), jsonlOf('layers-task', small, 'generated task'), { what: `${small.length} conditions`, check: values.check });
    return Math.max(a, b);
  },
});
