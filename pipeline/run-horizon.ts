// make run-horizon: the scoring-horizon ablation — 24 State + 24 Verification card tasks, one
// target action, then passive waiting, scored at 50/150/350/750/1000 ms = 240 traces.
// Reads: the ledger (gate), data/tasks/layers.jsonl. Writes: data/raw/layers/horizon/<run>.jsonl, manifests/data.sha256.
import { main } from '../core/cli.ts';
import { armOptions, runLayersArm } from './layers/arms.ts';

await main({
  name: 'make run-horizon',
  summary: 'run the 240-trace scoring-horizon ablation and print VTS per layer and horizon',
  usage: 'make run-horizon [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke"]',
  options: armOptions,
  run: (values) => runLayersArm('horizon', values),
});
