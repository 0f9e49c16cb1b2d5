// make run-arm-b-contracts: an exploratory arm of study evidence on a production sample: each case's
// navigation verified under an action-specific contract (contracts.ts) by the verifier library,
// scored against the sample's frozen truth labels (prereg/evidence-arm-b-contracts.md, frozen
// before its first registered row; --smoke before it).
//
//   1. gate()        the frozen inputs equal the ledger head (else exit 3); a registered run needs the prereg
//   2. preflight     the manifest and labels frozen, labels made from this manifest (as Arm B)
//   3. the site      answers, and its frozen labels still describe it (direct HTTP, no browser yet)
//   4. trials        rep by rep, case by case: a fresh context, GET-only to the origin, the verifier's
//                    record of the navigation under the case's contract (verify-trial.ts)
//   5. rows          data/raw/evidence/arm-b-contracts/<prereg>-<sample>-<browser>.jsonl: the record,
//                    its timeline as the events, and the verdict `verifier-contract` = closed
//
// Reads: prereg/, data/tasks/arm-b/, data/labels/arm-b/, the ledger. Writes: the run's rows (smoke:
// data/excluded/), manifests/data.sha256.
import { main } from '../../../core/cli.ts';
import { UsageError } from '../../../core/errors.ts';
import { rel } from '../../../core/paths.ts';
import { log } from '../../../core/log.ts';
import type { EvidenceRow } from '../../../analysis/rows.ts';
import { runArm } from '../../kernel/run.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import type { BrowserName } from '../../browser/launch.ts';
import { lastTime } from '../../../verifier/src/index.ts';
import { conditionId, manifestPath, readManifest } from './manifest.ts';
import { preflight } from './preflight.ts';
import { armBTrials, readySample, sampleOptions, sampleValues, type Trial } from './run-arm-b.ts';
import { caseContract } from './contracts.ts';
import { verifyTrial } from './verify-trial.ts';
import { isMain } from '../../../core/entry.ts';

/** The prereg of this arm, and the policy id its rows carry until it exists (a smoke run before the freeze). */
export const contractsArm = { study: 'evidence', arm: 'arm-b-contracts', policy: 'verifier-contract', draftId: 'evidence-arm-b-contracts' } as const;

export interface ContractsOptions {
  browser?: BrowserName;
  manifest?: string;
  smoke?: boolean;
  cases?: string[];
  reps?: number;
  redo?: string;
  shard?: string;
}

export async function runArmBContracts(options: ContractsOptions = {}) {
  if (!options.smoke && (options.cases || options.reps)) throw new UsageError('--cases and --reps take a subset, which only a --smoke run may do: a registered run is the whole manifest');
  const browser = options.browser ?? 'firefox';
  const prereg = readPreregs().find((p) => p.study === contractsArm.study && p.arm === contractsArm.arm);
  // the gate (kernel/run.ts) refuses a tree whose prereg/*.md differ from the ledger head: a prereg found here is frozen
  if (!options.smoke && !prereg) throw new UsageError(`a registered ${contractsArm.arm} run needs its prereg frozen first (prereg/${contractsArm.draftId}.md, from prereg/drafts/); until then, ARGS=--smoke`);
  const protocol = prereg?.id ?? contractsArm.draftId;
  const manifest = readManifest(manifestPath(options.manifest));
  const result = await runArm<Trial, EvidenceRow>({ smoke: options.smoke ?? false, workers: 1, redo: options.redo, shard: options.shard }, async (gated) => {
    // a registered run keeps every Arm B check; a smoke run, never analysed, may look at the void first
    // editor draw, whose labels were frozen after its own telemetry (that is why it is void)
    const ready = await preflight(manifestPath(options.manifest), gated.entry, { labelsBeforeTelemetry: !options.smoke });
    const sample = await readySample(ready, options);
    log({ kind: 'info', message: `${contractsArm.arm}: ${prereg ? `prereg ${prereg.file}` : 'no prereg yet (smoke)'}; ${rel(sample.manifestFile)} on ${manifest.origin}` });
    return {
      study: contractsArm.study,
      arm: contractsArm.arm,
      browser,
      runPrefix: `${protocol}-${manifest.id}-${browser}`,
      stamped: false,
      units: armBTrials(sample.manifest),
      conditionOf: (t: Trial) => conditionId(sample.manifest, t.c.id, t.rep),
      unitKey: (t: Trial) => conditionId(sample.manifest, t.c.id, t.rep),
      rowKey: (r: EvidenceRow) => r.condition_id,
      only: sample.subset,
      runUnit: async ({ c, rep }, ctx) => {
        const startedAt = new Date().toISOString();
        const contract = caseContract(sample.manifest, c, sample.headers);
        const trial = await verifyTrial(ctx.browser.browser, { url: c.url, origin: sample.manifest.origin, contract, cookies: sample.cookies });
        return {
          condition_id: conditionId(sample.manifest, c.id, rep),
          policy: protocol,
          started_at: startedAt,
          elapsed_ms: trial.elapsed_ms,
          scenario: c.kind,
          delay_ms: 0,
          rep,
          truth: sample.truth.get(c.id)!,
          case_id: c.id,
          protocol,
          events: trial.events,
          verdicts: { [contractsArm.policy]: { accept: trial.record.state === 'closed', latency_ms: lastTime(trial.record) } },
          evidence_record: { ...trial.record, transitions: [...trial.record.transitions] },
          contract: { kind: contract.kind, summary: contract.summary },
          error: trial.error,
        };
      },
    };
  });
  return { file: rel(result.file), runId: result.runId, protocol, rows: result.rows, written: result.written };
}

/** What the command prints: per case, its contract's kind, the truth, and how its trials ended. */
export function formatContractsRun(result: Awaited<ReturnType<typeof runArmBContracts>>): string {
  const byCase = new Map<string, EvidenceRow[]>();
  for (const r of result.rows) byCase.set(r.case_id ?? r.condition_id, [...(byCase.get(r.case_id ?? r.condition_id) ?? []), r]);
  const lines = [...byCase].map(([id, rows]) => {
    const ends = new Map<string, number>();
    for (const r of rows) {
      const rec = r.evidence_record;
      const end = rec?.state === 'closed' ? 'closed' : `${rec?.state ?? 'no record'} at ${rec?.transitions.at(-1)?.from ?? '-'}`;
      ends.set(end, (ends.get(end) ?? 0) + 1);
    }
    const accepted = rows.filter((r) => r.verdicts[contractsArm.policy]?.accept).length;
    return `  ${id.padEnd(30)} ${String(rows[0]!.contract?.kind ?? '').padEnd(13)} truth ${rows[0]!.truth.padEnd(8)} accepted ${accepted}/${rows.length}  ${[...ends].map(([e, n]) => `${n}× ${e}`).join(', ')}`;
  });
  const wrong = result.rows.filter((r) => r.verdicts[contractsArm.policy]?.accept !== (r.truth === 'success'));
  return [
    `${result.file} (${result.protocol}, ${result.written} new rows)`,
    ...lines,
    `false accepts ${wrong.filter((r) => r.truth === 'failure').length}/${result.rows.filter((r) => r.truth === 'failure').length}, false rejects ${wrong.filter((r) => r.truth === 'success').length}/${result.rows.filter((r) => r.truth === 'success').length}`,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make run-arm-b-contracts',
    summary: 'verify each navigation of a production sample under its action-specific contract (the verifier library), against the frozen truth labels',
    usage: 'make run-arm-b-contracts [BROWSER=chromium] [ARM_B_MANIFEST=data/tasks/arm-b/<name>.json] [ARGS="--smoke --cases a,b --reps 1"]',
    options: sampleOptions('firefox (as Arm B) or chromium'),
    async run(values) {
      const result = await runArmBContracts(sampleValues(values));
      process.stdout.write(formatContractsRun(result) + '\n');
    },
  });
}
