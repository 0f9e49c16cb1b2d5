// make run-layers: the `layers` main arm — 288 conditions × 3 reference policies = 864 traces.
// Reads: the ledger (gate), data/tasks/layers.jsonl. Writes: data/raw/layers/main/<run>.jsonl, manifests/data.sha256.
import { main } from '../../core/cli.ts';
import { layersCommand } from './arms.ts';

await main(layersCommand('main'));
