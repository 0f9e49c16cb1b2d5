// rstackbench run-verified: the `layers` verified arm — the selector-only and semantic-recovery
// policies wrapped by the verifier (policies/verified.ts) on the 288 conditions = 576 traces, each
// row carrying the policy's claim (done exactly when its save closed as a success). Not registered:
// run it with --smoke (rows to data/excluded/) until its own prereg is frozen (issue 24, item 4).
// Reads: the ledger (gate), data/tasks/layers.jsonl. Writes: data/excluded/layers/verified/ (smoke).
import { main } from '../../core/cli.ts';
import { layersCommand } from './arms.ts';

await main(layersCommand('verified'));
