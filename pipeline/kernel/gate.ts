// The run gate: every run calls gate() before it starts. It fails closed (exit code 3) when
// nothing is frozen, when the ledger chain is broken, or when any frozen input differs from
// the ledger head. The head hash it returns is recorded in every row the run writes.
import { GateError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { chainProblems, diffSnapshots, headOf, readLedger, snapshot, type LedgerEntry } from './ledger.ts';

export interface Gated { ledgerHead: string; entry: LedgerEntry }

/** unfrozen: files that may exist beyond the head without refusing (the pilot's plan files while they are written) */
export async function gate(options: { unfrozen?: (file: string) => boolean } = {}): Promise<Gated> {
  const lines = readLedger();
  const head = headOf(lines);
  if (!head) throw new GateError(messages.noFreeze());
  const broken = chainProblems(lines);
  if (broken.length) throw new GateError(`refusing to run: the ledger chain is broken:\n${broken.join('\n')}`);
  const differences = diffSnapshots(head.entry.files, await snapshot()).filter((d) => !(d.change === 'added' && options.unfrozen?.(d.file)));
  if (differences.length) {
    const files = differences.map((d) => `${d.file} (${d.change})`);
    throw new GateError(messages.changedSinceFreeze(files), differences.map((d) => d.file));
  }
  return { ledgerHead: head.hash, entry: head.entry };
}
