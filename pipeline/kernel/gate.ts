// The run gate: every run calls gate() before it starts. It fails closed (exit code 3) when
// nothing is frozen, when the ledger chain is broken, or when any frozen input differs from
// the ledger head. The head hash it returns is recorded in every row the run writes.
import { GateError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { chainProblems, diffSnapshots, headOf, readLedger, snapshot, type LedgerEntry } from './ledger.ts';

export interface Gated { ledgerHead: string; entry: LedgerEntry }

export async function gate(): Promise<Gated> {
  const lines = readLedger();
  const head = headOf(lines);
  if (!head) throw new GateError(messages.noFreeze());
  const broken = chainProblems(lines);
  if (broken.length) throw new GateError(`refusing to run: the ledger chain is broken:\n${broken.join('\n')}`);
  const differences = diffSnapshots(head.entry.files, await snapshot());
  if (differences.length) {
    const files = differences.map((d) => `${d.file} (${d.change})`);
    throw new GateError(messages.changedSinceFreeze(files), differences.map((d) => d.file));
  }
  return { ledgerHead: head.hash, entry: head.entry };
}
