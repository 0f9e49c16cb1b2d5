// make run-real-apps: the real-applications arm — every condition of data/tasks/layers-real-apps.jsonl
// × the 3 reference policies, on WordPress and MediaWiki behind the fault proxy.
// Reads: the ledger (gate), data/tasks/layers-real-apps.jsonl. Writes: data/raw/layers/real-apps/<run>.jsonl, manifests/data.sha256.
import { main } from '../../../core/cli.ts';
import { realAppsCommand } from './arm.ts';

await main(realAppsCommand);
