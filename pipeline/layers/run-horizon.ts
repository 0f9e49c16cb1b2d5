// make run-horizon: the scoring-horizon ablation — 24 State + 24 Verification card tasks, one
// target action, then passive waiting, scored at 50/150/350/750/1000 ms = 240 traces.
// Reads: the ledger (gate), data/tasks/layers.jsonl. Writes: data/raw/layers/horizon/<run>.jsonl, manifests/data.sha256.
import { main } from '../../core/cli.ts';
import { layersCommand } from './arms.ts';

await main(layersCommand('horizon'));
