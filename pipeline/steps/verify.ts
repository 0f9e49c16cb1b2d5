// make verify: what an artifact reviewer runs. Reads everything, writes nothing.
//   1. the ledger: every line valid, the hash chain unbroken
//   2. the frozen inputs (prereg/*.md, data/tasks/**, data/labels/**) equal the ledger head
//   3. data/raw and data/excluded equal manifests/data.sha256 (also checkable with `sha256sum -c`)
//   4. every registered run: rows valid, its ledger_head in the ledger, frozen before its first row
//   5. analysis/out and figures/out: regenerated from data/raw, equal to manifests/tables|figures.sha256
//   6. every output a prereg promises (front matter `promises:`) is in analysis/out and in the paper
// Prints OK, or each problem with its file; exits 1 on any problem.
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { messages } from '../../core/messages.ts';
import { isEvaluatorVerdicts, paths, rel } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { RStackError } from '../../core/errors.ts';
import { chainProblems, diffSnapshots, headOf, readLedger, snapshot, type LedgerLine } from '../kernel/ledger.ts';
import { checkPreregs } from '../kernel/prereg.ts';
import { checkManifest, dataFiles } from '../kernel/manifest.ts';
import { listFiles } from '../kernel/files.ts';
import { verifyAnalysis } from '../kernel/verify-analysis.ts';
import { promiseProblems } from '../kernel/promises.ts';
import { isMain } from '../../core/entry.ts';
import { verdictsAmendment } from '../../analysis/evaluator-audit.ts';
import type { EvaluatorVerdict } from '../../core/contracts.ts';

interface TraceHead { run_id: string; ledger_head: string; started_at: string }

export interface VerifyReport { checks: number; problems: string[] }

/** A file of other evaluators' registered verdicts: its rows valid, gated by a ledger entry older than the scoring that froze the amendment they are registered under. */
export function verdictProblems(file: string, ledger: LedgerLine[]): string[] {
  let rows: EvaluatorVerdict[];
  try {
    rows = readJsonl<EvaluatorVerdict>(file, { schema: 'evaluator-verdict' });
  } catch (error) {
    return [(error as Error).message];
  }
  if (!rows.length) return [`${rel(file)}: no verdicts`];
  const byHash = new Map(ledger.map((l) => [l.hash, l]));
  const problems: string[] = [];
  const amendment = verdictsAmendment(rows[0]!.run_file);
  const runFiles = new Set(rows.map((r) => r.run_file));
  if (runFiles.size > 1) problems.push(`${rel(file)}: verdicts on ${runFiles.size} run files (one file holds one run file's verdicts)`);
  for (const head of new Set(rows.map((r) => r.ledger_head))) {
    const entry = byHash.get(head);
    const first = rows.filter((r) => r.ledger_head === head).map((r) => Date.parse(r.scored_at)).sort((a, b) => a - b)[0]!;
    if (!entry) problems.push(`${rel(file)}: ledger_head ${head.slice(0, 12)}… is no entry of manifests/ledger.jsonl`);
    else if (!amendment) problems.push(`${rel(file)}: its run file ${rows[0]!.run_file} is of an arm with no amendment that registers verdicts`);
    else if (!entry.entry.files[amendment]) problems.push(`${rel(file)}: its ledger entry ${entry.entry.seq} does not freeze ${amendment}`);
    else if (Date.parse(entry.entry.at) >= first) problems.push(`${rel(file)}: its ledger entry ${entry.entry.seq} is not older than its first verdict`);
  }
  return problems;
}

/** Problems in one registered run file: rows, ledger head, and freeze-before-run order. */
export function runProblems(file: string, ledger: LedgerLine[]): string[] {
  const problems: string[] = [];
  let rows: TraceHead[];
  try {
    rows = readJsonl<TraceHead>(file, { schema: 'trace' });
  } catch (error) {
    return [(error as Error).message];
  }
  if (!rows.length) return [`${rel(file)}: no rows`];
  const byHash = new Map(ledger.map((l) => [l.hash, l]));
  // a run resumed after a later freeze carries two heads; each must predate the first row it gated
  const firstRowOf = new Map<string, TraceHead>();
  for (const r of rows) {
    const seen = firstRowOf.get(r.ledger_head);
    if (!seen || Date.parse(r.started_at) < Date.parse(seen.started_at)) firstRowOf.set(r.ledger_head, r);
  }
  for (const [head, first] of firstRowOf) {
    const entry = byHash.get(head);
    if (!entry) problems.push(`${rel(file)}: ledger_head ${head.slice(0, 12)}… is no entry of manifests/ledger.jsonl`);
    else if (Date.parse(entry.entry.at) >= Date.parse(first.started_at)) {
      problems.push(`${rel(file)}: its ledger entry ${entry.entry.seq} (${entry.entry.at}) is not older than the first row it gated (${first.started_at})`);
    }
  }
  const runIds = new Set(rows.map((r) => r.run_id));
  const expected = path.basename(file, '.jsonl');
  if (runIds.size !== 1 || !runIds.has(expected)) problems.push(`${rel(file)}: rows carry run_id ${[...runIds].join(', ')}, expected ${expected}`);
  return problems;
}

export async function verify(): Promise<VerifyReport> {
  const problems: string[] = [];
  let checks = 0;
  /** One check: the problems it finds, or the error that stopped it, as one problem. */
  const check = async (step: () => string[] | Promise<string[]>, stopped = (message: string) => message) => {
    checks++;
    try {
      problems.push(...(await step()));
    } catch (error) {
      problems.push(stopped((error as Error).message));
    }
  };

  let ledger: LedgerLine[] = [];
  try {
    ledger = readLedger();
  } catch (error) {
    await check(() => [(error as Error).message]);
  }
  const head = headOf(ledger);
  if (!head) await check(() => [`${rel(paths.ledger())}: no freeze yet (make freeze)`]);
  await check(() => chainProblems(ledger));
  if (head) {
    await check(async () =>
      diffSnapshots(head.entry.files, await snapshot()).map((d) =>
        d.change === 'added'
          ? `${d.file}: not frozen (added after ledger entry ${head.entry.seq}); ${messages.refreeze}`
          : `${d.file}: ${d.change} since it was frozen in ledger entry ${head.entry.seq}`,
      ),
    );
  }
  await check(checkPreregs);
  await check(() => checkManifest(paths.dataManifest(), dataFiles()));
  for (const file of listFiles(paths.raw()).filter((f) => f.endsWith('.jsonl'))) await check(() => (isEvaluatorVerdicts(file) ? verdictProblems(file, ledger) : runProblems(file, ledger)));
  // 5. the tables and figures: regenerated from data/raw into a temp folder, byte-identical to their manifests
  await check(() => verifyAnalysis(), (message) => `reanalysis failed: ${message}`);
  // 6. the registered outputs: each promise of a prereg kept in analysis/out and in the paper
  await check(promiseProblems);
  return { checks, problems };
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make verify',
    summary: 'check the ledger chain, the frozen inputs, the data manifest and every run against its freeze',
    async run() {
      const { checks, problems } = await verify();
      if (problems.length) {
        for (const p of problems) process.stdout.write(`FAIL ${p}\n`);
        throw new RStackError(messages.verifyFailed(problems.length), { exitCode: 1 });
      }
      process.stdout.write(messages.verifyOk(checks) + '\n');
    },
  });
}
