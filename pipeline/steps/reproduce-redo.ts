// make reproduce REDO=1: every arm `make reproduce` runs, rerun from nothing into a scratch folder and
// compared with its registered run. The registered record (data/raw, data/excluded, data/runs.jsonl,
// manifests/) is read, never written: the rerun's rows, exclusions, run log and data manifest live in
// the scratch folder (RSTACK_SCRATCH, core/paths.ts), gated on the root's frozen inputs and ledger.
//
//   gate (the root's ledger) ─▶ hash the record ─▶ for each arm, in make reproduce's order:
//     its run target as a child process with RSTACK_SCRATCH=<scratch> (progress on stderr; its own
//     end screen in <scratch>/logs/<arm>.txt) ─▶ its scratch run beside its registered run through the
//     arm's summary tables (analysis/run-summary.ts) ─▶ the flips (pipeline/steps/compare.ts)
//   ─▶ hash the record again ─▶ the summary screen, and <scratch>/reproduce-redo.json
//
// Resumed (the same command and --scratch after a stop): every arm runs its target again, which resumes
// its run or finds it complete; each arm's earlier sessions, read from the scratch run log, are added
// to its time, so a rerun done in pieces still prints its whole time (whole_wall_s).
//
// Reads: the root's ledger, frozen inputs and registered runs. Writes: only inside the scratch folder.
// Exit: 0 when every arm ran (flips are reported, not failures); else the first failing arm's code;
// 1 when the record changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { main, intOption } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { codeRoot, paths, rel, root, runOutputs } from '../../core/paths.ts';
import { listFiles } from '../../core/files.ts';
import { sha256File } from '../../core/hash.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import { RStackError, UsageError } from '../../core/errors.ts';
import type { RedoArm, RedoSummary, TraceRow } from '../../core/contracts.ts';
import { summariesBeside, type SummaryTable } from '../../analysis/run-summary.ts';
import type { BrowserName } from '../browser/launch.ts';
import { gate } from '../kernel/gate.ts';
import { FAST_WORKERS, chromiumChoice, chromiumChoiceHelp } from '../browser/speed.ts';
import { firefoxPathFor, firefoxPathHelp, parseFirefoxPath, type FirefoxPath } from '../browser/firefox-path.ts';
import { REGISTERED_MAX_WORKERS, registeredBrowsers } from '../evidence/matrix.ts';
import { writeFileAtomic } from '../kernel/files.ts';
import { codeState, readRunLog, runningSessions } from '../kernel/run-log.ts';
import { existingRun, stamp, type RunNaming } from '../kernel/run-files.ts';
import { parseShard, runPrefixOf } from '../kernel/run.ts';
import { mergeShards, shardFiles, type MergePlan } from '../kernel/merge.ts';
import { frozenPlanFiles } from '../pilot/plan-file.ts';
import { armBBrowsers, armBRegisteredWorkers } from '../evidence/arm-b/run-arm-b.ts';
import { adoptedWorkers, summaryTablesFor } from '../layers/real-apps/arm.ts';
import { manifestPath, readManifest } from '../evidence/arm-b/manifest.ts';
import { compareRuns, flipChange, unitOf } from './compare.ts';
import { planFor } from './merge.ts';
import { summaryTables, type LayersArm } from '../layers/arms.ts';
import { isMain } from '../../core/entry.ts';

type EarlierSessions = NonNullable<RedoArm['earlier']>;

/** Units at once per arm: the layers arms at the bench's settings (browser/speed.ts), the evidence arms
 *  at the most their amendments allow (evidence/matrix.ts), unless --workers / --evidence-workers say less. */
export interface RedoWorkers { layers: number | null; evidence: number | null }
const layersWorkers = (w: RedoWorkers, browser: BrowserName) => w.layers ?? FAST_WORKERS.layers[browser];
const evidenceWorkers = (w: RedoWorkers, arm: 'controlled' | 'arm-a') => Math.min(w.evidence ?? Infinity, REGISTERED_MAX_WORKERS[arm]);

interface Arm {
  name: string;
  study: TraceRow['study'];
  browser: BrowserName;
  /** the run target and its flags (the scratch folder comes through the environment) */
  verb: string;
  args: string[];
  /** a command the run target runs inside (Arm B: with the WordPress site up, then down) */
  wrap?: string[];
  workers: number | null;
  naming: RunNaming;
  /** the plan its run target uses, for make merge (null: the pilot, which merge does not take) */
  plan: MergePlan<unknown, TraceRow> | null;
  tables: SummaryTable[];
  /** takes --only (a smoke slice) */
  sliceable: boolean;
  /** the part of the arm it runs, where an amendment names one (Arm B: the default sample) */
  scope?: string;
}

const bin = path.join(codeRoot, 'bin', 'rstackbench');

/** The run target of each small-apps arm (pipeline/layers/run-<arm>.ts through bin/rstackbench). */
const layersVerbs: Record<LayersArm, string> = { main: 'run-layers', horizon: 'run-horizon', verified: 'run-verified', claims: 'run-claims' };

/** What a small-apps arm's runs are set beside each other by: its end screen's tables, and the verified
 *  arm's own table (its end screen, verifiedSummary, is not an analysis table; layers_verified counts a
 *  run's verified rows alone when no main rows are beside them). */
const layersRedoTables = (arm: LayersArm): SummaryTable[] =>
  arm === 'verified' ? [{ name: 'layers_verified', hide: ['browser', 'arm', 'mean_actions', 'mean_latency_ms'] }] : summaryTables[arm];

function layersArm(arm: LayersArm, browser: BrowserName, workers: number): Arm {
  const { plan } = planFor(arm, browser);
  const tables = layersRedoTables(arm);
  return {
    name: `${arm}-${browser}`, study: 'layers', browser, verb: layersVerbs[arm],
    args: ['--browser', browser, '--workers', String(workers)], workers,
    naming: { study: 'layers', arm, prefix: runPrefixOf(plan), stamped: plan.stamped ?? true }, plan, tables, sliceable: true,
  };
}

function evidenceArm(arm: 'controlled' | 'arm-a', workers: number): Arm {
  const browser: BrowserName = arm === 'controlled' ? 'chromium' : 'firefox';
  const { plan, tables } = planFor(arm, browser);
  const browsers = registeredBrowsers(arm, workers);
  return {
    name: arm, study: 'evidence', browser, verb: `run-${arm}`, args: ['--workers', String(workers), ...(browsers > 1 ? ['--browsers', String(browsers)] : [])], workers,
    naming: { study: 'evidence', arm, prefix: runPrefixOf(plan), stamped: plan.stamped ?? true }, plan, tables, sliceable: true,
  };
}

function pilotArm(planFile: string, workers: number): Arm {
  const planRun = path.basename(planFile, '.jsonl');
  return {
    name: `pilot-${planRun}`, study: 'layers', browser: 'chromium', verb: 'run-pilot',
    args: ['--plans', planFile, '--browser', 'chromium', '--workers', String(workers)], workers,
    naming: { study: 'layers', arm: 'pilot', prefix: `layers-pilot-chromium-${planRun}`, stamped: true }, plan: null,
    tables: [{ name: 'layers_pilot', hide: ['browser'] }, { name: 'layers_pilot_paired', hide: ['browser'] }], sliceable: true,
  };
}

/** Arm B's trials at once: what the default sample's amendment allows (run-arm-b.ts), unless --evidence-workers says less; one Firefox each. */
const armBWorkers = (w: RedoWorkers) => Math.min(w.evidence ?? Infinity, armBRegisteredWorkers(readManifest(manifestPath()).id));

function armBArm(workers: number): Arm {
  const { plan, tables } = planFor('arm-b', 'firefox');
  const overlap = workers > 1 ? ['--workers', String(workers), '--browsers', String(armBBrowsers(workers))] : [];
  return {
    name: 'arm-b', study: 'evidence', browser: 'firefox', verb: 'run-arm-b', args: ['--browser', 'firefox', ...overlap],
    wrap: [process.execPath, '--import', import.meta.resolve('tsx'), path.join(codeRoot, 'pipeline', 'steps', 'with-sites.ts'), '--sites', 'wordpress', '--'], workers,
    naming: { study: 'evidence', arm: 'arm-b', prefix: runPrefixOf(plan), stamped: plan.stamped ?? true }, plan, tables, sliceable: false,
    scope: readManifest(manifestPath()).id,
  };
}

/** The real-application arms' versions in force: version 2 of each (prereg/layers-real-apps-amendment-1.md
 *  and prereg/layers-transport-amendment-2.md supersede version 1). */
const REDO_VERSION: Record<'real-apps' | 'transport', number> = { 'real-apps': 2, transport: 2 };

/**
 * The real-applications arm (version in force) or the transport arm in one browser, on WordPress and
 * MediaWiki (its run target starts them when they are not running, on 127.0.0.1, and stops them after):
 * one store per worker, as many workers as its amendment adopted in that browser (or WORKERS, fewer).
 */
function realAppArm(arm: 'real-apps' | 'transport', browser: BrowserName, w: RedoWorkers): Arm {
  const version = REDO_VERSION[arm];
  const workers = Math.min(w.layers ?? Infinity, adoptedWorkers(arm, version, browser).workers);
  const prefix = `layers-${arm}${version > 1 ? `-v${version}` : ''}-${browser}`;
  return {
    name: `${arm}-${browser}`, study: 'layers', browser, verb: `run-${arm}`,
    args: ['--browser', browser, ...(version > 1 ? ['--version', String(version)] : []), '--workers', String(workers)], workers,
    naming: { study: 'layers', arm, prefix, stamped: true }, plan: null,
    tables: arm === 'real-apps' ? summaryTablesFor(version) : [{ name: version > 1 ? 'layers_transport_v2' : 'layers_transport', hide: ['browser'] }], sliceable: true,
  };
}

/** The small apps' arms make reproduce runs in each browser, in its order. */
const smallAppArms: readonly LayersArm[] = ['main', 'horizon', 'verified', 'claims'];

/** Every arm make reproduce runs: the small apps' arms in Chromium (main, horizon, verified, claims), the pilot's frozen plans, the same four in Firefox, the evidence arms, the real applications and their transport faults (realApps), Arm B. */
export function redoArms(options: { workers: RedoWorkers; armB: boolean; realApps?: boolean; planFiles: string[] }): Arm[] {
  const w = options.workers;
  const realApps = options.realApps ?? true;
  return [
    ...smallAppArms.map((arm) => layersArm(arm, 'chromium', layersWorkers(w, 'chromium'))),
    ...options.planFiles.map((f) => pilotArm(f, layersWorkers(w, 'chromium'))),
    ...smallAppArms.map((arm) => layersArm(arm, 'firefox', layersWorkers(w, 'firefox'))),
    evidenceArm('controlled', evidenceWorkers(w, 'controlled')),
    evidenceArm('arm-a', evidenceWorkers(w, 'arm-a')),
    ...(realApps ? (['chromium', 'firefox'] as const).flatMap((b) => [realAppArm('real-apps', b, w), realAppArm('transport', b, w)]) : []),
    ...(options.armB ? [armBArm(armBWorkers(w))] : []),
  ];
}

/** The registered record: every file of data/raw, data/excluded, data/runs.jsonl and manifests/ of the root, with its sha256. */
async function hashRecord(): Promise<Map<string, string>> {
  const record = runOutputs(root());
  const files = [...listFiles(record.raw()), ...listFiles(record.excluded()), ...listFiles(paths.manifests())];
  if (fs.existsSync(record.runLog())) files.push(record.runLog());
  const hashes = new Map<string, string>();
  for (const f of files.sort()) hashes.set(rel(f), await sha256File(f));
  return hashes;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.filter((f) => before.get(f) !== after.get(f)).map((f) => `${f} (${!before.has(f) ? 'added' : !after.has(f) ? 'removed' : 'changed'})`);
}

/** Runs the arm's target into the scratch folder; its stdout goes to the log file, its progress to our stderr. */
function runTarget(arm: Arm, scratch: string, selection: Selection, logFile: string, chromiumPath: string | null, firefoxPath: FirefoxPath | undefined): Promise<{ exit: number; signal: NodeJS.Signals | null }> {
  const command = [...(arm.wrap ?? []), process.execPath, bin, arm.verb, ...arm.args, ...selectionArgs(selection)];
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: codeRoot, env: { ...process.env, RSTACK_SCRATCH: scratch, ...(firefoxPath ? { FIREFOX_TRIAL_PATH: firefoxPath } : {}), ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}) }, stdio: ['ignore', out, 'inherit'] });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      fs.closeSync(out);
      resolve({ exit: code ?? 1, signal });
    });
  });
}

/** What part of every arm a rerun runs: a slice of conditions (smoke runs), this machine's shard of n, or all. */
interface Selection { only?: string; shard: { index: number; count: number } | null }
const shardText = (shard: Selection['shard']) => (shard ? `${shard.index}/${shard.count}` : '');
const selectionArgs = (s: Selection) => [...(s.only !== undefined ? ['--smoke', '--only', s.only] : []), ...(s.shard ? ['--shard', shardText(s.shard)] : [])];

/** The run file the arm's last session in the scratch folder wrote (from the scratch run log): the shard's
 *  run when the rerun is one shard, else the whole run (never a shard's). */
function scratchRunFile(arm: Arm, scratch: string, shard: Selection['shard']): string | null {
  const prefix = `${arm.naming.prefix}${shard ? `-shard${shard.index}of${shard.count}` : ''}`;
  const starts = readRunLog(runOutputs(scratch).runLog()).filter(
    (l) => l.event === 'start' && l.study === arm.naming.study && l.arm === arm.naming.arm && (l.run_id === prefix || l.run_id.startsWith(`${prefix}-`)) && (shard !== null || !/-shard\d+of\d+(-|$)/.test(l.run_id.slice(prefix.length))),
  );
  return starts.length ? path.join(scratch, starts.at(-1)!.file) : null;
}

/**
 * The sessions of the arm's scratch run before this rerun reached it (`before`), by the scratch run log:
 * a rerun that a stop cut short, resumed by the same command, runs the arm again in pieces. Each piece is
 * timed from its start line to its end line, or, where the process was killed before it wrote one, to its
 * last row's end; the rows it wrote (of `rows`, the run file's, read once by the caller); the commit it ran.
 */
function earlierSessions(scratch: string, runFile: string | null, rows: readonly TraceRow[], before: Date): EarlierSessions | null {
  if (!runFile) return null;
  const log = readRunLog(runOutputs(scratch).runLog()).filter((l) => path.join(scratch, l.file) === runFile && Date.parse(l.at) < before.getTime());
  const starts = log.filter((l) => l.event === 'start');
  if (!starts.length) return null;
  const pieces = starts.map((start, i) => {
    const from = Date.parse(start.at);
    const next = i + 1 < starts.length ? Date.parse(starts[i + 1]!.at) : before.getTime();
    const end = log.find((l) => l.event === 'end' && l.session === start.session);
    const own = rows.filter((r) => { const t = Date.parse(r.started_at); return t >= from && t < next; });
    const until = end ? Date.parse(end.at) : Math.max(from, ...own.map((r) => Date.parse(r.started_at) + r.elapsed_ms));
    return { wall_s: (until - from) / 1000, rows: own.length, commit: start.commit ?? null, killed: !end };
  });
  return {
    sessions: pieces.length, wall_s: Math.round(pieces.reduce((n, p) => n + p.wall_s, 0) * 1000) / 1000,
    rows: pieces.reduce((n, p) => n + p.rows, 0), killed: pieces.filter((p) => p.killed).length,
    commits: [...new Set(pieces.map((p) => p.commit).filter((c): c is string => c !== null))],
  };
}

/** The summary file of a rerun: one per shard, so the n shards of one rerun can share a scratch folder. */
const summaryName = (shard: Selection['shard']) => (shard ? `reproduce-redo-shard${shard.index}of${shard.count}.json` : 'reproduce-redo.json');

/** The shards' summary files in the scratch folder (reproduce-redo-shard<i>of<n>.json), read once, by `i/n`. */
function readShardSummaries(scratch: string): Map<string, RedoSummary> {
  const found = (fs.existsSync(scratch) ? fs.readdirSync(scratch) : [])
    .map((name) => ({ name, m: /^reproduce-redo-shard(\d+)of(\d+)\.json$/.exec(name) }))
    .filter((f) => f.m)
    .map(({ name, m }) => ({ file: path.join(scratch, name), index: Number(m![1]), count: Number(m![2]) }))
    .sort((a, b) => a.count - b.count || a.index - b.index);
  return new Map(found.map((f) => [`${f.index}/${f.count}`, validate<RedoSummary>('reproduce-redo', JSON.parse(fs.readFileSync(f.file, 'utf8')), { file: rel(f.file) })]));
}

/**
 * The shards' own reruns of an arm, when the scratch folder holds its shard files (n machines each ran
 * `--shard i/n` into a folder of its own, collected here by deploy/collect.ts; or one machine ran them one
 * after another): they are merged into one scratch run (make merge's own step, row for row a single run),
 * and each shard's time for the arm is taken from its summary. null when there are no shard files of the arm.
 */
async function mergeScratchShards(arm: Arm, scratch: string, summaries: Map<string, RedoSummary>): Promise<{ shards: NonNullable<RedoArm['shards']>; exit: number } | null> {
  if (!arm.plan) return null;
  process.env.RSTACK_SCRATCH = scratch; // make merge's step reads and writes the output root: here, the scratch folder
  try {
    if (!shardFiles(arm.plan).length) return null;
    const merged = await mergeShards(arm.plan);
    const shards = merged.shards.map((s) => {
      const shard = `${s.index}/${s.count}`;
      const own = summaries.get(shard)?.arms.find((a) => a.arm === arm.name);
      return { shard, wall_s: own?.wall_s ?? null, exit: own?.exit ?? null };
    });
    return { shards, exit: shards.find((s) => s.exit)?.exit ?? 0 };
  } finally {
    delete process.env.RSTACK_SCRATCH;
  }
}

const rowsOf = (file: string | null) => (file && fs.existsSync(file) ? readJsonl<TraceRow>(file, { schema: 'trace' }) : []);

function duration(s: number): string {
  const whole = Math.round(s);
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

/** The arm's screen: its scratch run beside its registered run, then the flips. */
function armScreen(arm: Arm, result: RedoArm, registered: TraceRow[], scratch: TraceRow[], scratchFolder: string): string {
  const flips = result.flips.map((f) => `    ${f.unit}: ${f.change}`);
  const flagged = result.flagged_flips.map((f) => `    ${f.unit}: ${f.change}`);
  const lines = [
    `━━ ${arm.name} (${arm.study}, ${arm.browser}) ━━ ${result.rows} rows in ${duration(result.wall_s)}${result.wall_s > 0 ? ` (${(result.rows / result.wall_s).toFixed(2)} rows/s)` : ''}, ${result.workers ?? 1} at once, exit ${result.exit}`,
    `  registered: ${result.registered_file ?? '(none)'} (${result.registered_rows} rows)`,
    `  scratch:    ${result.scratch_file ? path.join(scratchFolder, result.scratch_file) : '(none)'} (${result.rows} rows)`,
    ...(result.earlier ? [`  earlier sessions of this scratch run: ${result.earlier.sessions} (${result.earlier.killed} stopped before their end), ${result.earlier.rows} rows in ${duration(result.earlier.wall_s)}; with this one ${duration(result.earlier.wall_s + result.wall_s)}`] : []),
    ...(result.shards ? [`  merged from shards: ${result.shards.map((s) => `${s.shard} ${s.wall_s === null ? '(no summary)' : duration(s.wall_s)}`).join(', ')}`] : []),
  ];
  if (!registered.length || !scratch.length) return [...lines, '  nothing to compare'].join('\n');
  // a slice (or a run that stopped) is set beside the same units of the registered run
  const units = new Set(scratch.map(unitOf));
  const alike = result.only_registered ? registered.filter((r) => units.has(unitOf(r))) : registered;
  lines.push(
    '',
    `the same tables on each run${result.only_registered ? ` (the registered run's rows of the ${units.size} units the scratch run has)` : ''}: a cell the runs agree on once, else registered → scratch (≠: a count differs)`,
    summariesBeside(alike, scratch, arm.tables),
    '',
    `outcomes: ${result.same} the same; ${result.flips.length + result.flagged_flips.length} flipped: ${result.flips.length} flagged timing-sensitive in neither run, ${result.flagged_flips.length} flagged in either`,
    ...(flips.length ? ['  unflagged flips (registered → scratch):', ...flips] : []),
    ...(flagged.length ? ['  flagged flips:', ...flagged] : []),
    `  registered units not in the scratch run: ${result.only_registered}; scratch units not registered: ${result.only_scratch}`,
  );
  return lines.join('\n');
}

function summaryScreen(summary: RedoSummary, file: string): string {
  // a rerun resumed in pieces: each arm's wall is all its sessions' (earlier ones by the scratch run log), and a column says how much ran before
  const pieces = summary.arms.filter((a) => a.earlier);
  const armWall = (a: RedoArm) => a.wall_s + (a.earlier?.wall_s ?? 0);
  const header = ['arm', 'rows', 'wall', ...(pieces.length ? ['before'] : []), 'rows/s', 'at once', 'same', 'flips', 'flagged', 'not rerun', 'exit'];
  const body = summary.arms.map((a) => [
    a.arm, `${a.rows}/${a.registered_rows}`, duration(armWall(a)), ...(pieces.length ? [a.earlier ? duration(a.earlier.wall_s) : '–'] : []), armWall(a) > 0 ? (a.rows / armWall(a)).toFixed(2) : '–', String(a.workers ?? 1),
    String(a.same), String(a.flips.length), String(a.flagged_flips.length), String(a.only_registered), String(a.exit),
  ]);
  body.push(['total', `${summary.arms.reduce((n, a) => n + a.rows, 0)}`, duration(summary.whole_wall_s ?? summary.wall_s), ...(pieces.length ? [duration((summary.whole_wall_s ?? summary.wall_s) - summary.wall_s)] : []), '', '', '', String(summary.arms.reduce((n, a) => n + a.flips.length, 0)), String(summary.arms.reduce((n, a) => n + a.flagged_flips.length, 0)), '', '']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const commits = [...new Set([...pieces.flatMap((a) => a.earlier!.commits), ...(summary.commit ? [summary.commit] : [])])];
  const whole = pieces.length && summary.whole_wall_s !== undefined
    ? [`in pieces: ${pieces.length} arm${pieces.length === 1 ? '' : 's'} ran before in this scratch folder (${pieces.reduce((n, a) => n + a.earlier!.sessions, 0)} sessions, by its run log); the whole rerun: ${duration(summary.whole_wall_s)} of running (${duration(summary.wall_s)} here), at commit${commits.length === 1 ? '' : 's'} ${commits.map((c) => c.slice(0, 8)).join(', ')}`]
    : [];
  const machines = summary.shard_runs?.length
    ? [`merged from ${summary.shard_runs.length} shards (wall: the slowest shard's per arm), each one machine's rerun: ${summary.shard_runs.map((r) => `${r.shard} ${duration(r.wall_s)} (load ${r.load_start[0]} → ${r.load_end[0]})`).join(', ')}; on ${summary.shard_runs.length} machines at once: ${duration(Math.max(...summary.shard_runs.map((r) => r.wall_s)))}`]
    : [];
  return [
    `══ reproduce REDO${summary.shard ? ` shard ${summary.shard}` : ''}: ${summary.arms.length} arm${summary.arms.length === 1 ? '' : 's'} in ${duration(summary.wall_s)} (load ${summary.load_start.join(' ')} → ${summary.load_end.join(' ')}); rows: scratch/registered; flips: outcomes that differ, flagged timing-sensitive in neither run`,
    line(header),
    ...body.map(line),
    ...machines,
    ...whole,
    `registered record (data/raw, data/excluded, data/runs.jsonl, manifests/): ${summary.record_unchanged ? 'unchanged' : 'CHANGED'}`,
    `scratch folder: ${summary.scratch}`,
    `written: ${file}`,
  ].join('\n');
}

/** A scratch folder may not lie in the record (a run under data/ or manifests/ of the root would change it), nor hold the root. */
function checkScratch(scratch: string): void {
  const within = (p: string, dir: string) => {
    const r = path.relative(dir, p);
    return r === '' || (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r));
  };
  if (within(root(), scratch) || within(scratch, paths.data()) || within(scratch, paths.manifests())) throw new UsageError(messages.redo.scratchInRecord(scratch));
}

export async function reproduceRedo(options: { scratch?: string; workers: RedoWorkers; chromium: string | null; firefoxPath?: FirefoxPath; armB: boolean; realApps?: boolean; arms?: string[]; only?: string; shard?: string }): Promise<{ summary: RedoSummary; file: string; exit: number }> {
  // the registered runs are looked up in the root: this process never writes, its children write to the scratch folder
  delete process.env.RSTACK_SCRATCH;
  const startedAt = new Date();
  const scratch = path.resolve(options.scratch ?? path.join(root(), 'scratch', `reproduce-${stamp()}`));
  checkScratch(scratch);
  if (options.only !== undefined) {
    try {
      new RegExp(options.only);
    } catch (cause) {
      throw new UsageError(`--only takes a regular expression: ${(cause as Error).message}`, cause);
    }
  }
  const selection: Selection = { only: options.only, shard: parseShard(options.shard) };
  const gated = await gate();
  const busy = runningSessions().filter((s) => s.registered);
  if (busy.length) throw new RStackError(messages.redo.registeredBusy(busy.map((s) => s.session)), { exitCode: 2 });
  const planFiles = frozenPlanFiles(gated.entry).map((f) => path.join(root(), f));
  if (!planFiles.length) log({ kind: 'info', message: messages.redo.pilotSkipped() });
  const every = redoArms({ workers: options.workers, armB: options.armB, realApps: options.realApps ?? true, planFiles });
  for (const name of options.arms ?? []) if (!every.some((a) => a.name === name)) throw new UsageError(messages.redo.unknownArm(name, every.map((a) => a.name)));
  const chosen = options.arms ? every.filter((a) => options.arms!.includes(a.name)) : every;
  if (options.only !== undefined && chosen.some((a) => !a.sliceable)) throw new UsageError(messages.redo.onlyArmB());

  const chromiumPath = options.chromium;
  fs.mkdirSync(scratch, { recursive: true });
  log({ kind: 'info', message: messages.redo.start(scratch, chosen.map((a) => a.name), selectionArgs(selection).join(' ') || null) });
  const code = codeState(); // the code that runs, as it is when the rerun starts
  const before = await hashRecord();
  const loadStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const startedMs = performance.now();
  const results: RedoArm[] = [];
  const shardSummaries = selection.shard ? new Map<string, RedoSummary>() : readShardSummaries(scratch);
  let exit = 0;
  for (const [i, arm] of chosen.entries()) {
    const merged = selection.shard || selection.only !== undefined ? null : await mergeScratchShards(arm, scratch, shardSummaries);
    let ended: { exit: number; signal: NodeJS.Signals | null };
    let wallS: number;
    const reached = new Date();
    if (merged) {
      // every shard ran (here or on other machines): their merge is the rerun; n machines take the slowest shard's time
      log({ kind: 'info', message: messages.redo.merged(arm.name, merged.shards.map((s) => s.shard)) });
      ended = { exit: merged.exit, signal: null };
      wallS = Math.max(0, ...merged.shards.map((s) => s.wall_s ?? 0));
    } else {
      log({ kind: 'info', message: `[${i + 1}/${chosen.length}] ${arm.name}: ${arm.verb} ${[...arm.args, ...selectionArgs(selection)].join(' ')}` });
      const logFile = path.join(scratch, 'logs', `${arm.name}${selection.shard ? `-shard${selection.shard.index}of${selection.shard.count}` : ''}.txt`);
      const t0 = performance.now();
      ended = await runTarget(arm, scratch, selection, logFile, chromiumPath, options.firefoxPath);
      wallS = Math.round(performance.now() - t0) / 1000;
      // stopped by the user (Ctrl-C, kill): stop the rerun the same way; a crash is the arm's failure
      if (ended.signal && ['SIGINT', 'SIGTERM', 'SIGHUP'].includes(ended.signal)) process.kill(process.pid, ended.signal);
      if (ended.exit !== 0) log({ kind: 'warn', message: messages.redo.armFailed(arm.name, ended.exit, logFile) });
    }
    if (ended.exit !== 0 && exit === 0) exit = ended.exit;
    const registeredFile = existingRun(arm.naming, false) ?? null;
    const scratchFile = scratchRunFile(arm, scratch, selection.shard);
    const [registered, rerun] = [rowsOf(registeredFile), rowsOf(scratchFile)];
    // the sessions of that run before this rerun reached the arm (a rerun cut short and resumed): their time counts too
    const earlier = merged ? null : earlierSessions(scratch, scratchFile, rerun, reached);
    const c = compareRuns(registered, rerun);
    const result: RedoArm = {
      arm: arm.name, study: arm.study, browser: arm.browser, workers: arm.workers,
      ...(arm.browser === 'firefox' ? { firefox_path: options.firefoxPath ?? firefoxPathFor(arm.study, arm.naming.arm, {}, arm.scope) } : {}), exit: ended.exit, wall_s: wallS, rows: rerun.length,
      registered_file: registeredFile ? rel(registeredFile) : null, registered_rows: registered.length,
      scratch_file: scratchFile ? path.relative(scratch, scratchFile).split(path.sep).join('/') : null,
      same: c.same, flips: c.flips.map((f) => ({ unit: f.key, change: flipChange(f) })), flagged_flips: c.flagged.map((f) => ({ unit: f.key, change: flipChange(f) })),
      only_registered: c.onlyA.length, only_scratch: c.onlyB.length, ...(earlier ? { earlier } : {}), ...(merged ? { shards: merged.shards } : {}),
    };
    results.push(result);
    process.stdout.write(`${armScreen(arm, result, registered, rerun, scratch)}\n\n`);
  }
  const ownS = Math.round(performance.now() - startedMs) / 1000;
  const changed = changedFiles(before, await hashRecord());
  if (changed.length) {
    log({ kind: 'error', message: messages.redo.recordChanged(changed) });
    exit = 1;
  }
  // the shards the arms were merged from, as each shard's own summary tells its rerun
  const mergedFrom = new Set(results.flatMap((r) => r.shards?.map((s) => s.shard) ?? []));
  const shardRuns = [...shardSummaries].filter(([shard]) => mergedFrom.has(shard)).map(([shard, r]) => ({ shard, wall_s: r.wall_s, commit: r.commit, load_start: r.load_start, load_end: r.load_end }));
  // merged arms ran before, in their shards, n machines at once: the whole took the slowest shard's rerun, then this one
  const wallS = Math.round((ownS + Math.max(0, ...shardRuns.map((r) => r.wall_s))) * 1000) / 1000;
  const summary = validate<RedoSummary>('reproduce-redo', {
    schema: 'reproduce-redo/1', scratch, started_at: startedAt.toISOString(), ended_at: new Date().toISOString(),
    commit: code.commit, dirty: code.dirty, ledger_head: gated.ledgerHead, selection: options.only ?? null, shard: selection.shard ? shardText(selection.shard) : null,
    load_start: loadStart, load_end: os.loadavg().map((x) => Math.round(x * 100) / 100), wall_s: wallS,
    whole_wall_s: Math.round((wallS + results.reduce((n, a) => n + (a.earlier?.wall_s ?? 0), 0)) * 1000) / 1000,
    record_unchanged: changed.length === 0, arms: results, ...(shardRuns.length ? { shard_runs: shardRuns } : {}),
  }, { file: summaryName(selection.shard) });
  const file = path.join(scratch, summaryName(selection.shard));
  writeFileAtomic(file, JSON.stringify(summary, null, 2) + '\n');
  process.stdout.write(`${summaryScreen(summary, file)}\n`);
  return { summary, file, exit };
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make reproduce REDO=1',
    summary: 'rerun every arm of make reproduce from nothing into a scratch folder and compare each with its registered run; the registered record stays untouched',
    usage: 'make reproduce REDO=1 [ARM_B=0] [ARM_REAL=0] [WORKERS=n] [ARGS="--scratch DIR --arms main-chromium,controlled"]',
    options: {
      scratch: { type: 'string', help: 'the folder the rerun writes into (default: scratch/reproduce-<time> in the repository, git-ignored; an existing one resumes, arm by arm, and the summary adds the time its earlier sessions ran, by its run log)' },
      workers: { type: 'string', help: `units at once in the layers arms and the pilot (default: ${FAST_WORKERS.layers.chromium} in Chromium, ${FAST_WORKERS.layers.firefox} in Firefox)` },
      'evidence-workers': { type: 'string', help: `rows at once in the evidence arms (default and most: what their amendments allow, ${REGISTERED_MAX_WORKERS.controlled} in the controlled arm, ${REGISTERED_MAX_WORKERS['arm-a']} in Arm A, ${armBRegisteredWorkers(readManifest(manifestPath()).id)} in Arm B)` },
      chromium: { type: 'string', default: 'shell', help: `the Chromium arms' binary: ${chromiumChoiceHelp}; the scratch run log records which` },
      'firefox-path': { type: 'string', default: process.env.FIREFOX_TRIAL_PATH || undefined, help: `the Firefox arms' path: ${firefoxPathHelp}; default FIREFOX_TRIAL_PATH, else each arm's own (lean where an amendment adopted it, else playwright); the scratch run log records lean` },
      'skip-arm-b': { type: 'boolean', default: false, help: 'leave Arm B out (make reproduce ARM_B=0): no WordPress, MariaDB, Apache or PHP installed or started' },
      'skip-real-apps': { type: 'boolean', default: false, help: 'leave the real-application and transport arms out (make reproduce ARM_REAL=0): no WordPress or MediaWiki started for them' },
      arms: { type: 'string', help: 'ARM,ARM: only these arms (main-, horizon-, verified-, claims-chromium, pilot-<plans>, the same four -firefox, controlled, arm-a, real-apps-chromium, transport-chromium, real-apps-firefox, transport-firefox, arm-b)' },
      only: { type: 'string', help: 'REGEX: a slice of condition ids in every arm, run as smoke runs in the scratch folder (a quick look; not Arm B)' },
      shard: { type: 'string', help: 'i/n: this machine\'s shard of every arm (units i, i+n, …), set beside the same units of the registered runs; run the n shards into copies of one scratch folder (on n machines, or one after another), bring them together, and a rerun without --shard merges each arm\'s shards and compares the whole' },
    },
    async run(values) {
      const { exit } = await reproduceRedo({
        scratch: values.scratch,
        workers: {
          layers: values.workers === undefined ? null : intOption(values.workers, 'workers', 1),
          evidence: values['evidence-workers'] === undefined ? null : intOption(values['evidence-workers'], 'evidence-workers', 1),
        },
        chromium: chromiumChoice(values.chromium),
        firefoxPath: values['firefox-path'] ? parseFirefoxPath(values['firefox-path']) : undefined,
        armB: !values['skip-arm-b'],
        realApps: !values['skip-real-apps'],
        arms: values.arms?.split(',').map((s) => s.trim()).filter(Boolean),
        only: values.only,
        shard: values.shard,
      });
      return exit;
    },
  });
}
