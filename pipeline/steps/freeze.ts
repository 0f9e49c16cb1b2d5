// make freeze: hash prereg/*.md, data/tasks/** and data/labels/** into a new ledger entry.
// Reads: the frozen inputs. Writes: one line appended to manifests/ledger.jsonl (or nothing).
import { main } from '../../core/cli.ts';
import { messages } from '../../core/messages.ts';
import { freeze, readLedger, chainProblems } from '../kernel/ledger.ts';
import { CheckError } from '../../core/errors.ts';
import { checkPreregs } from '../kernel/prereg.ts';
import { isMain } from '../../core/entry.ts';

if (isMain(import.meta.url)) {
  await main({
    name: 'make freeze',
    summary: 'freeze the preregistrations, task definitions and truth labels into a new hash-chained ledger entry',
    usage: 'make freeze REASON="why"   (or: node --import tsx pipeline/steps/freeze.ts --reason "why")',
    options: { reason: { type: 'string', help: 'why this freeze happens (recorded in the entry)' } },
    async run(values) {
      const broken = chainProblems(readLedger());
      if (broken.length) throw new CheckError(`the ledger chain is broken; refusing to extend it:\n${broken.join('\n')}`);
      const problems = checkPreregs();
      if (problems.length) throw new CheckError(problems.join('\n'));
      const result = await freeze(values.reason ?? 'freeze');
      process.stdout.write(
        (result.added
          ? messages.freezeAdded(result.entry.seq, Object.keys(result.entry.files).length, result.head)
          : messages.freezeUnchanged(result.entry.seq)) + '\n',
      );
    },
  });
}
