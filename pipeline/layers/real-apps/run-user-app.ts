// make run-user-app: the real-applications harness on an application of the user's own (user-app.ts).
// Reads: the ledger (gate), the app file and its family files. Writes: smoke rows under runs/run-user-app-<name>/ (git-ignored; or RSTACK_SCRATCH).
import { main } from '../../../core/cli.ts';
import { userAppCommand } from './user-app.ts';

await main(userAppCommand);
