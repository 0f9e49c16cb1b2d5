// make run-arm-b: the production arm of study evidence (Arm B), in Firefox by default.
//
//   1. gate()                       the frozen inputs equal the ledger head (else exit 3)
//   2. protocol                     prereg/evidence-arm-b*.md: the newest amendment, its registered policies
//   3. preflight                    manifest + labels frozen, labels made from this manifest, before any telemetry;
//                                   runs under superseded protocols → data/excluded/ with the reason
//   4. the site answers             one GET of the origin, and direct HTTP still gives the frozen labels
//   5. trials                       rep by rep, case by case: a fresh context, GET-only to the origin,
//                                   the timeline recorded, verdicts computed from it (pure functions)
//   6. rows                         data/raw/evidence/arm-b/<protocol>-<sample>-<browser>.jsonl (resumable)
//   7. summary + data manifest      per policy vs truth with Wilson intervals, checks, medians
//
// Reads: prereg/, data/tasks/arm-b/, data/labels/arm-b/, the ledger. Writes: the run's rows,
// data/excluded/ (superseded runs, smoke runs), manifests/data.sha256.
import { main, intOption } from '../core/cli.ts';
import { UsageError, RStackError } from '../core/errors.ts';
import { messages } from '../core/messages.ts';
import { rel } from '../core/paths.ts';
import { log } from '../core/log.ts';
import { readJsonl } from '../core/jsonl.ts';
import { verdicts } from '../core/evidence/production.ts';
import { formatSummary, summarize, type ArmBRow, type ArmBSummary } from '../core/evidence/production-summary.ts';
import { gate } from './lib/gate.ts';
import { TraceWriter, type TraceRow } from './lib/trace-writer.ts';
import { updateDataManifest } from './lib/manifest.ts';
import { launchBrowser, parseBrowserName, type BrowserName } from './lib/browser/launch.ts';
import { conditionId, manifestPath } from './lib/production/manifest.ts';
import { labelManifest } from './lib/production/labeler.ts';
import { protocolChain } from './lib/production/protocol.ts';
import { excludeSuperseded, preflight } from './lib/production/preflight.ts';
import { defaultWindowMs, recordTrial } from './lib/production/recorder.ts';
import { contextCookies, readSession } from './lib/production/session.ts';

export interface RunOptions {
  browser?: BrowserName;
  manifest?: string;
  /** development runs: written to data/excluded/, may take a subset */
  smoke?: boolean;
  cases?: string[];
  reps?: number;
  windowMs?: number;
}

export interface RunResult { file: string; runId: string; protocol: string; summary: ArmBSummary; written: number }

/** One Arm B row of schemas/trace.schema.json (study evidence, arm arm-b). */
interface ArmBTraceRow extends TraceRow, ArmBRow {
  schema: 'trace/1';
  browser: { name: BrowserName; version: string };
  ledger_head: string;
  started_at: string;
  elapsed_ms: number;
  smoke?: boolean;
  delay_ms: number;
  rep: number;
  case_id: string;
  protocol: string;
  error: string | null;
}

async function siteAnswers(origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${origin}/`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

export async function runArmB(options: RunOptions = {}): Promise<RunResult> {
  if (!options.smoke && (options.cases || options.reps)) throw new UsageError('--cases and --reps take a subset, which only a --smoke run may do: a registered run is the whole manifest');
  // 1–3: nothing is sent before these pass
  const gated = await gate();
  const protocols = protocolChain();
  const protocol = protocols.current;
  const ready = await preflight(manifestPath(options.manifest), gated.entry);
  const { manifest, labels } = ready;
  if (!options.smoke) excludeSuperseded(protocols);
  // 4
  if (!(await siteAnswers(manifest.origin))) throw new RStackError(messages.armB.siteDown(manifest.origin), { exitCode: 1 });
  // the frozen labels must still describe the site: relabel by direct HTTP and compare (no browser yet)
  const { labels: now } = await labelManifest(manifest);
  const drifted = now.filter((l) => {
    const frozen = labels.cases.find((c) => c.case_id === l.case_id)!;
    return frozen.truth !== l.truth || frozen.status !== l.status || frozen.final_url !== l.final_url;
  });
  if (drifted.length) throw new RStackError(messages.armB.siteDrifted(drifted.map((l) => `${l.case_id}: now ${l.status} ${l.truth}`)), { exitCode: 1 });

  const session = readSession(manifest);
  const cookies = session ? contextCookies(session, manifest.origin) : undefined;
  const browserName = options.browser ?? 'firefox';
  const cases = options.cases ? manifest.cases.filter((c) => options.cases!.includes(c.id)) : manifest.cases;
  if (options.cases && cases.length !== options.cases.length) throw new UsageError(`unknown case in --cases; the manifest has ${manifest.cases.map((c) => c.id).join(', ')}`);
  const reps = options.reps ?? manifest.repetitions;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const runId = `${protocol.id}-${manifest.id}-${browserName}${options.smoke ? `-smoke-${stamp}` : ''}`;
  const writer = TraceWriter.open<ArmBTraceRow>({ study: 'evidence', arm: 'arm-b', runId, key: (r) => r.condition_id, smoke: options.smoke });
  const truth = new Map(labels.cases.map((l) => [l.case_id, l.truth]));

  const plan = Array.from({ length: reps }, (_, rep) => cases.map((c) => ({ c, rep }))).flat();
  const todo = plan.filter(({ c, rep }) => !writer.has(conditionId(manifest, c.id, rep)));
  log({ kind: 'info', message: `arm-b: protocol ${protocol.id} (v${protocol.version}, ${protocol.file}); policies ${protocol.policies.join(', ')}` });
  log({ kind: 'info', message: `arm-b: ${rel(ready.manifestFile)} on ${manifest.origin}; ${plan.length} trials, ${plan.length - todo.length} already recorded; ${browserName}${options.smoke ? ' (smoke: data/excluded/)' : ''}` });

  if (todo.length) {
    const launched = await launchBrowser(browserName);
    const startedMs = performance.now();
    try {
      for (const [i, { c, rep }] of todo.entries()) {
        const startedAt = new Date().toISOString();
        const trial = await recordTrial(launched.browser, { url: c.url, origin: manifest.origin, windowMs: options.windowMs ?? defaultWindowMs, cookies });
        writer.append({
          schema: 'trace/1',
          study: 'evidence',
          arm: 'arm-b',
          run_id: runId,
          condition_id: conditionId(manifest, c.id, rep),
          policy: protocol.id,
          browser: { name: launched.name, version: launched.version },
          ledger_head: gated.ledgerHead,
          started_at: startedAt,
          elapsed_ms: trial.elapsed_ms,
          ...(options.smoke ? { smoke: true } : {}),
          scenario: c.kind,
          delay_ms: 0,
          rep,
          truth: truth.get(c.id)!,
          case_id: c.id,
          protocol: protocol.id,
          events: trial.events,
          verdicts: verdicts(trial.events, protocol.policies),
          error: trial.error,
        });
        log({ kind: 'progress', label: 'arm-b', done: i + 1, total: todo.length, startedMs, nowMs: performance.now() });
      }
    } finally {
      await launched.browser.close().catch(() => {});
    }
  }
  const rows = readJsonl<ArmBTraceRow>(writer.file, { schema: 'trace' });
  const summary = summarize(rows, protocol.policies);
  await updateDataManifest();
  return { file: rel(writer.file), runId, protocol: protocol.id, summary, written: writer.written };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main({
    name: 'make run-arm-b',
    summary: 'run the production sample (Arm B) under the arm-b protocol in force, in Firefox by default',
    usage: 'make run-arm-b [BROWSER=chromium] [ARM_B_MANIFEST=data/tasks/arm-b/<name>.json] [ARGS="--smoke --cases a,b --reps 1"]',
    options: {
      browser: { type: 'string', default: 'firefox' },
      manifest: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      cases: { type: 'string' },
      reps: { type: 'string' },
      'window-ms': { type: 'string' },
    },
    help: {
      browser: 'firefox (as the paper) or chromium',
      manifest: 'the production manifest (default: ARM_B_MANIFEST, else data/tasks/arm-b/manifest.json)',
      smoke: 'a development run: rows go to data/excluded/, and a subset is allowed',
      cases: 'smoke only: comma-separated case ids',
      reps: 'smoke only: repetitions per case',
      'window-ms': `how long to sample title and body after domcontentloaded (default ${defaultWindowMs})`,
    },
    async run(values) {
      // tests may shorten the window of a run in a throw-away tree; on the command line only a smoke run may
      if (values['window-ms'] !== undefined && !values.smoke) throw new UsageError(`--window-ms is for --smoke runs: the protocol registers ${defaultWindowMs} ms`);
      const result = await runArmB({
        browser: parseBrowserName(values.browser, 'firefox'),
        manifest: values.manifest,
        smoke: values.smoke,
        cases: values.cases ? values.cases.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
        reps: values.reps !== undefined ? intOption(values.reps, 'reps', 1) : undefined,
        windowMs: values['window-ms'] !== undefined ? intOption(values['window-ms'], 'window-ms', defaultWindowMs, 1000) : undefined,
      });
      process.stdout.write(`${result.file} (protocol ${result.protocol}, ${result.written} new rows)\n${formatSummary(result.summary)}\n`);
    },
  });
}
