// make freeze: hash prereg/*.md, data/tasks/** and data/labels/** into a new ledger entry.
// Reads: the frozen inputs. Writes: one line appended to manifests/ledger.jsonl (or nothing).
import { main } from '../../core/cli.ts';
import { messages } from '../../core/messages.ts';
import { freeze, readLedger, chainProblems, headOf, snapshot } from '../kernel/ledger.ts';
import { CheckError } from '../../core/errors.ts';
import { checkPreregs } from '../kernel/prereg.ts';
import { checkFamilies } from '../layers/real-apps/check-families.ts';
import { isMain } from '../../core/entry.ts';

/** Real-application condition files this freeze would add or change: their families are then checked on the apps themselves. */
async function realAppConditionsChanging(): Promise<string[]> {
  const files = await snapshot();
  const head = headOf(readLedger());
  return Object.keys(files).filter((f) => /^data\/tasks\/layers-(real-apps|transport)[^/]*\.jsonl$/.test(f) && head?.entry.files[f] !== files[f]);
}

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
      // the families every real-application condition is made from: a typo in a query would score every row "not saved"
      const changing = await realAppConditionsChanging();
      const families = await checkFamilies({ live: changing.length > 0 });
      if (families) throw new CheckError(`the real applications' task families have problems; nothing was frozen:\n${families}`);
      const result = await freeze(values.reason ?? 'freeze');
      process.stdout.write(
        (result.added
          ? messages.freezeAdded(result.entry.seq, Object.keys(result.entry.files).length, result.head)
          : messages.freezeUnchanged(result.entry.seq)) + '\n',
      );
    },
  });
}
