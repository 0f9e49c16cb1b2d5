// make run-claims: the `layers` claims arm — the main arm's 288 conditions × 3 reference policies
// = 864 traces, each row keeping the policy's claim (done or not, from what it checked) beside what
// the page showed: false completion by the page (the seed's) and by the claim, and false abandonment
// (issue 47); registered under prereg/layers-claims.md (frozen first), --smoke before it.
// Reads: the ledger (gate), prereg/, data/tasks/layers.jsonl. Writes: data/raw/layers/claims/
// (registered) or data/excluded/layers/claims/ (smoke), manifests/data.sha256.
import { main } from '../../core/cli.ts';
import { layersCommand } from './arms.ts';

await main(layersCommand('claims'));
