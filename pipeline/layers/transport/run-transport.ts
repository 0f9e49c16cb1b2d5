// make run-transport: the transport arm — every condition of data/tasks/layers-transport.jsonl × the
// 3 reference policies, on WordPress and MediaWiki behind the fault proxy.
// Reads: the ledger (gate), data/tasks/layers-transport.jsonl. Writes: data/raw/layers/transport/<run>.jsonl, manifests/data.sha256.
import { main } from '../../../core/cli.ts';
import { transportCommand } from './arm.ts';

await main(transportCommand);
