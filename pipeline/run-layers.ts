// make run-layers: the `layers` main arm — 288 conditions × 3 reference policies = 864 traces.
// Reads: the ledger (gate), data/tasks/layers.jsonl. Writes: data/raw/layers/main/<run>.jsonl, manifests/data.sha256.
import { main } from '../core/cli.ts';
import { armOptions, runLayersArm } from './layers/arms.ts';

await main({
  name: 'make run-layers',
  summary: 'run the 864 `layers` traces (288 conditions × 3 reference policies) and print AS / VTS / FC per policy and layer',
  usage: 'make run-layers [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke --only cards-state"]',
  options: armOptions,
  run: (values) => runLayersArm('main', values),
});
