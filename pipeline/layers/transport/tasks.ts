// make tasks-transport: generate the transport arm's seeded conditions into
// data/tasks/layers-transport.jsonl. Reads: the seed, fixtures/<app>/families/*.json and the
// design (design.ts). Writes: data/tasks/layers-transport.jsonl (byte-identical for the same inputs).
import { main } from '../../../core/cli.ts';
import { checkOption, jsonlOf, writeGenerated } from '../../kernel/generated.ts';
import { generateTransportTasks, TRANSPORT_SEED } from './generate.ts';
import { transportTaskFile } from './arm.ts';

await main({
  name: 'make tasks-transport',
  summary: "generate the transport arm's seeded conditions (each real-application family × transport fault × severity, each designed compound pair, and their controls) into data/tasks/layers-transport.jsonl",
  options: {
    seed: { type: 'string', default: TRANSPORT_SEED, help: 'the generator seed (prereg/layers-transport.md names the registered one)' },
    ...checkOption,
  },
  async run(values) {
    const tasks = generateTransportTasks(values.seed);
    return writeGenerated(transportTaskFile(), jsonlOf('layers-real-apps-task', tasks, 'generated task'), { what: `${tasks.length} conditions`, check: values.check });
  },
});
