// rstackbench run-verified: the `layers` verified arm — the selector-only and semantic-recovery
// policies wrapped by the verifier (policies/verified.ts) on the 288 conditions = 576 traces, each
// row carrying the policy's claim (done exactly when its save closed as a success); registered under
// prereg/layers-verified.md (frozen first), --smoke before it.
// Reads: the ledger (gate), prereg/, data/tasks/layers.jsonl. Writes: data/raw/layers/verified/
// (registered) or data/excluded/layers/verified/ (smoke).
import { main } from '../../core/cli.ts';
import { layersCommand } from './arms.ts';

await main(layersCommand('verified'));
