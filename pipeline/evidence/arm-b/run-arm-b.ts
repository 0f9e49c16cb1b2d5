// make run-arm-b: the production arm of study evidence (Arm B), in Firefox by default.
//
//   1. gate()                       the frozen inputs equal the ledger head (else exit 3)
//   2. protocol                     prereg/evidence-arm-b*.md: the newest amendment, its registered policies
//   3. preflight                    manifest + labels frozen, labels made from this manifest, before any telemetry;
//                                   runs under superseded protocols → data/excluded/ with the reason
//   4. the site answers             one GET of the origin, and direct HTTP still gives the frozen labels
//   5. trials                       rep by rep, case by case, on the run skeleton (pipeline/kernel/run.ts):
//                                   a fresh context, GET-only to the origin, the timeline recorded,
//                                   verdicts computed from it (pure functions)
//   6. rows                         data/raw/evidence/arm-b/<protocol>-<sample>-<browser>.jsonl
//                                   (resumable; --redo, --smoke, --shard like every arm)
//   7. summary                      the analysis's production table on the run's rows, the checks
//
// Reads: prereg/, data/tasks/arm-b/, data/labels/arm-b/, the ledger. Writes: the run's rows,
// data/excluded/ (superseded runs, smoke runs), manifests/data.sha256.
import { main, intOption, type Values } from '../../../core/cli.ts';
import { UsageError, RStackError } from '../../../core/errors.ts';
import { messages } from '../../../core/messages.ts';
import { rel } from '../../../core/paths.ts';
import { log } from '../../../core/log.ts';
import { verdicts, checkCounts } from '../../../core/evidence/production.ts';
import type { EvidenceRow } from '../../../analysis/rows.ts';
import { runSummary, type SummaryTable } from '../../../analysis/run-summary.ts';
import { runArm, type RunPlan } from '../../kernel/run.ts';
import { runOptions } from '../../kernel/run-flags.ts';
import { browsersFor, checkOverlap, type Overlap } from '../overlap.ts';
import { parseBrowserName, type BrowserName } from '../../browser/launch.ts';
import { conditionId, manifestPath, readManifest, type ProductionCase, type ProductionManifest } from './manifest.ts';
import { labelManifest } from './labeler.ts';
import { protocolChain, readArmBProtocols } from './protocol.ts';
import { excludeSuperseded, preflight } from './preflight.ts';
import { defaultWindowMs, recordTrial } from './recorder.ts';
import { contextCookies, readSession } from './session.ts';
import { isMain } from '../../../core/entry.ts';

export interface RunOptions {
  browser?: BrowserName;
  manifest?: string;
  /** development runs: written to data/excluded/, may take a subset */
  smoke?: boolean;
  cases?: string[];
  reps?: number;
  windowMs?: number;
  redo?: string;
  shard?: string;
  /** trials at once, each in a Firefox process of its own for a registered run (ARM_B_REGISTERED_WORKERS) */
  workers?: number;
  browsers?: number;
}

/** The most trials a registered run of a sample may have at once, and the amendment that says so;
 *  a sample not named here runs one trial at a time (prereg/evidence-arm-b.md). Overlapping trials
 *  each take a Firefox process of their own (ARM_B_ROWS_PER_BROWSER), as Arm A's do. */
export const ARM_B_REGISTERED_WORKERS: Readonly<Record<string, { most: number; source: string }>> = {
  'wordpress-local': { most: 4, source: 'prereg/evidence-arm-b-overlap.md' },
};
export const ARM_B_ROWS_PER_BROWSER = 1;
const armBOverlap = (sample: string): Overlap => ({ ...(ARM_B_REGISTERED_WORKERS[sample] ?? { most: 1, source: 'prereg/evidence-arm-b.md' }), perBrowser: ARM_B_ROWS_PER_BROWSER });
/** The trials at once a registered run of the sample takes by default (make reproduce REDO=1), and the processes they need. */
export const armBRegisteredWorkers = (sample: string) => armBOverlap(sample).most;
export const armBBrowsers = (workers: number) => browsersFor(armBOverlap(''), workers);

/** A registered run takes what its sample's amendment allows, no more, one trial per Firefox process; a smoke run may take more. */
export const checkArmBWorkers = (sample: string, workers: number, browsers: number, smoke: boolean): void =>
  checkOverlap(`arm-b (${sample})`, armBOverlap(sample), { workers, browsers, smoke });

export interface RunResult { file: string; runId: string; protocol: string; rows: EvidenceRow[]; written: number; checks: Record<string, { failed: number; of: number }> }

export interface Trial { c: ProductionCase; rep: number }

async function siteAnswers(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** Arm B's units in the order a run writes them: repetition by repetition, case by case (make merge uses it too). */
export const armBTrials = (manifest: ProductionManifest): Trial[] => Array.from({ length: manifest.repetitions }, (_, rep) => manifest.cases.map((c) => ({ c, rep }))).flat();

/** Arm B's plan without its runner: the naming (ids not stamped: one registered run per protocol, sample and browser), the units in order, the keys (make merge uses it too). */
export const armBPlanNaming = (protocolId: string, manifest: ProductionManifest, browser: BrowserName) => ({
  study: 'evidence' as const,
  arm: 'arm-b' as const,
  browser,
  runPrefix: `${protocolId}-${manifest.id}-${browser}`,
  stamped: false,
  units: armBTrials(manifest),
  conditionOf: (t: Trial) => conditionId(manifest, t.c.id, t.rep),
  unitKey: (t: Trial) => conditionId(manifest, t.c.id, t.rep),
  rowKey: (r: EvidenceRow) => r.condition_id,
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What every Arm B runner needs of its sample once the preflight passed: the site answers, its frozen labels still describe it, the smoke subset, the truth and the session. */
export async function readySample(ready: Awaited<ReturnType<typeof preflight>>, options: Pick<RunOptions, 'cases' | 'reps'>) {
  const { manifest, labels } = ready;
  if (!(await siteAnswers(manifest.origin))) throw new RStackError(messages.armB.siteDown(manifest.origin), { exitCode: 1 });
  // the frozen labels must still describe the site: relabel by direct HTTP and compare (no browser yet)
  const { labels: now } = await labelManifest(manifest);
  const drifted = now.filter((l) => {
    const frozen = labels.cases.find((c) => c.case_id === l.case_id)!;
    return frozen.truth !== l.truth || frozen.status !== l.status || frozen.final_url !== l.final_url;
  });
  if (drifted.length) throw new RStackError(messages.armB.siteDrifted(drifted.map((l) => `${l.case_id}: now ${l.status} ${l.truth}`)), { exitCode: 1 });
  if (options.cases) {
    const unknown = options.cases.filter((id) => !manifest.cases.some((c) => c.id === id));
    if (unknown.length) throw new UsageError(`unknown case in --cases; the manifest has ${manifest.cases.map((c) => c.id).join(', ')}`);
  }
  // a smoke subset (--cases, --reps) is a selection of condition ids, like --only
  let subset: string | undefined;
  if (options.cases || options.reps) {
    const picked = armBTrials(manifest).filter((t) => (!options.cases || options.cases.includes(t.c.id)) && t.rep < (options.reps ?? manifest.repetitions));
    subset = `^(${picked.map((t) => escapeRegExp(conditionId(manifest, t.c.id, t.rep))).join('|')})$`;
  }
  const session = readSession(manifest);
  return {
    manifest,
    manifestFile: ready.manifestFile,
    subset,
    truth: new Map(labels.cases.map((l) => [l.case_id, l.truth])),
    cookies: session ? contextCookies(session, manifest.origin) : undefined,
    headers: session?.headers ?? {},
  };
}

export async function runArmB(options: RunOptions = {}): Promise<RunResult> {
  if (!options.smoke && (options.cases || options.reps)) throw new UsageError('--cases and --reps take a subset, which only a --smoke run may do: a registered run is the whole manifest');
  const browserName = options.browser ?? 'firefox';
  let protocolId = '';
  let subset: string | undefined;
  const workers = options.workers ?? 1;
  const browsers = options.browsers ?? 1;
  const result = await runArm<Trial, EvidenceRow>(
    { smoke: options.smoke ?? false, workers, browsers, redo: options.redo, shard: options.shard },
    async (gated): Promise<RunPlan<Trial, EvidenceRow>> => {
      const sampleId = readManifest(manifestPath(options.manifest)).id;
      checkArmBWorkers(sampleId, workers, browsers, options.smoke ?? false);
      // nothing is sent before the protocol, the frozen manifest and labels pass
      const protocols = protocolChain(readArmBProtocols(), sampleId);
      const protocol = protocols.current;
      protocolId = protocol.id;
      const ready = await preflight(manifestPath(options.manifest), gated.entry);
      if (!options.smoke) excludeSuperseded(protocols);
      const sample = await readySample(ready, options);
      const { manifest, truth, cookies } = sample;
      subset = sample.subset;
      log({ kind: 'info', message: `arm-b: protocol ${protocol.id} (v${protocol.version}, ${protocol.file}); policies ${protocol.policies.join(', ')}` });
      log({ kind: 'info', message: `arm-b: ${rel(sample.manifestFile)} on ${manifest.origin}` });
      return {
        ...armBPlanNaming(protocol.id, manifest, browserName),
        scope: manifest.id,
        only: subset,
        runUnit: async ({ c, rep }, ctx) => {
          const startedAt = new Date().toISOString();
          const trial = await recordTrial(ctx.browser.browser, { url: c.url, origin: manifest.origin, windowMs: options.windowMs ?? defaultWindowMs, cookies });
          return {
            condition_id: conditionId(manifest, c.id, rep),
            policy: protocol.id,
            started_at: startedAt,
            elapsed_ms: trial.elapsed_ms,
            scenario: c.kind,
            delay_ms: 0,
            rep,
            truth: truth.get(c.id)!,
            case_id: c.id,
            protocol: protocol.id,
            events: trial.events,
            verdicts: verdicts(trial.events, protocol.policies),
            error: trial.error,
          };
        },
      };
    },
  );
  return { file: rel(result.file), runId: result.runId, protocol: protocolId, rows: result.rows, written: result.written, checks: checkCounts(result.rows) };
}

/** The flags both verbs of a production sample take (make run-arm-b, make run-arm-b-contracts), `browserHelp` for --browser. */
export const sampleOptions = (browserHelp: string) => {
  const trialOptions = runOptions('trial');
  return {
    browser: { type: 'string', default: 'firefox', help: browserHelp },
    manifest: { type: 'string', help: 'the production manifest (default: ARM_B_MANIFEST, else data/tasks/arm-b/manifest.json)' },
    smoke: trialOptions.smoke,
    cases: { type: 'string', help: 'smoke only: comma-separated case ids' },
    reps: { type: 'string', help: 'smoke only: repetitions per case' },
    redo: trialOptions.redo,
    shard: trialOptions.shard,
  } as const;
};

/** What sampleOptions' flags say, as both verbs' runners take it. */
export const sampleValues = (values: Values<ReturnType<typeof sampleOptions>>) => ({
  browser: parseBrowserName(values.browser, 'firefox'),
  manifest: values.manifest,
  smoke: values.smoke,
  cases: values.cases ? values.cases.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
  reps: values.reps !== undefined ? intOption(values.reps, 'reps', 1) : undefined,
  redo: values.redo,
  shard: values.shard,
});

/** The analysis's table an Arm B run (and its merge) shows on the run's rows. */
/** per sample: the study's own evidence_production is the record's sample only (analysis/queries/load_evidence.sql) */
export const armBSummaryTables: SummaryTable[] = [{ name: 'evidence_production_samples', hide: ['browser'] }];

/** What the runner prints: the analysis's production table on the run's rows, then the instrumentation checks. */
export function formatRun(result: RunResult): string {
  const checks = Object.entries(result.checks).map(([name, c]) => `  ${name.padEnd(30)} ${c.failed}/${c.of}`);
  return [
    `${result.file} (protocol ${result.protocol}, ${result.written} new rows)`,
    runSummary(result.rows, armBSummaryTables),
    '',
    'instrumentation checks (failed / applicable trials):',
    ...checks,
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const trialOptions = runOptions('trial');
  await main({
    name: 'make run-arm-b',
    summary: 'run the production sample (Arm B) under the arm-b protocol in force, in Firefox by default',
    usage: 'make run-arm-b [BROWSER=chromium] [ARM_B_MANIFEST=data/tasks/arm-b/<name>.json] [ARGS="--smoke --cases a,b --reps 1"]',
    options: {
      ...sampleOptions('firefox (as the paper) or chromium'),
      'window-ms': { type: 'string', help: `how long to sample title and body after domcontentloaded (default ${defaultWindowMs})` },
      workers: { ...trialOptions.workers, help: 'trials at once (a registered run: at most what its sample\'s amendment allows, ARM_B_REGISTERED_WORKERS in this file)' },
      browsers: { ...trialOptions.browsers, help: 'Firefox processes the trials are spread over (a registered run: one per trial at once)' },
    },
    async run(values) {
      // tests may shorten the window of a run in a throw-away tree; on the command line only a smoke run may
      if (values['window-ms'] !== undefined && !values.smoke) throw new UsageError(`--window-ms is for --smoke runs: the protocol registers ${defaultWindowMs} ms`);
      const result = await runArmB({
        ...sampleValues(values),
        windowMs: values['window-ms'] !== undefined ? intOption(values['window-ms'], 'window-ms', defaultWindowMs, 1000) : undefined,
        workers: intOption(values.workers, 'workers', 1),
        browsers: intOption(values.browsers, 'browsers', 1),
      });
      process.stdout.write(formatRun(result) + '\n');
    },
  });
}
