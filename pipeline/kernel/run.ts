// The run skeleton every arm shares (layers main and horizon, the evidence matrix in both browsers,
// Arm B, outside agents, the planning pilot):
//
//   1. gate()          the frozen inputs equal the ledger head, else exit 3
//   2. plan(gated)     the study's units (conditions × policies …), in order, and how one becomes a row
//   3. selection       --only REGEX (smoke runs only) and --shard i/n
//   4. run file        one process per run slot (run-lock.ts: a second is refused, exit 2); resume,
//                      --redo, --smoke (run-files.ts); data/runs.jsonl gets the session's start
//   5. trace writer    one validated row per unit, fsynced; a torn last line moved aside; a write that
//                      fails (a full disk) ends the run with one line: the rows on disk, resume continues
//   6. browser pool    `browsers` browser processes (each replaced every `browserBatch` units),
//                      `workers` units at once spread over them, each worker with its own resources;
//                      a failed attempt is kept in data/excluded/; a plan's stopAfter ends the run
//                      after that many failed rows in a row (an outside agent that never claims);
//                      SIGTERM, SIGINT or SIGHUP close the browsers: one cancelled attempt, exit 128+n
//   7. manifest        manifests/data.sha256; data/runs.jsonl gets the session's end
//   8. rows            every row of the run file, for the study's summary (analysis/run-summary.ts)
//
// A study supplies only step 2. Per-unit outcomes do not depend on the worker count or the shard.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { outputRoot, paths, rel, root } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { readJsonl, toLine } from '../../core/jsonl.ts';
import { UsageError, RStackError, WriteError, firstLine } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { gate, type Gated } from './gate.ts';
import { TraceWriter, type TraceFile } from './trace-writer.ts';
import { runPool } from './pool.ts';
import { chooseRun } from './run-files.ts';
import { updateDataManifest } from './manifest.ts';
import { appendDurable, countRows } from './files.ts';
import { freeName, recordExclusion } from './exclude.ts';
import { logEnd, logStart, runningSessions, type RunLogLine } from './run-log.ts';
import { lockRunSlot } from './run-lock.ts';
import type { TraceRow } from '../../core/contracts.ts';
import { browserExecutable, launchBrowser, type BrowserName, type LaunchedBrowser } from '../browser/launch.ts';
import { firefoxPathFor, firefoxPathFromEnv, leanPathAdopted } from '../browser/firefox-path.ts';

/** The fields every trace row carries that the skeleton, not the study, fills in. */
export type RowHeader = Pick<TraceRow, 'schema' | 'study' | 'arm' | 'run_id' | 'browser' | 'ledger_head' | 'smoke'>;

/** What a study's unit produces: the row minus its header. */
/** What a unit returns: its row without the header the skeleton adds, and the files it keeps beside the row (trace-writer.ts). */
export type RowBody<R> = Omit<R, keyof RowHeader> & { files?: TraceFile[] };

export interface UnitContext<W> {
  browser: LaunchedBrowser;
  worker: W;
  runId: string;
  ledgerHead: string;
  smoke: boolean;
  /** filled by the condition, read by the bench (pipeline/bench/) */
  phases?: UnitPhases;
}

export interface RunPlan<U, R extends TraceRow, W = void> {
  study: RowHeader['study'];
  arm: TraceRow['arm'];
  browser: BrowserName;
  /** run ids start with it (default `<study>-<arm>-<browser>`); stamped: add the start time */
  runPrefix?: string;
  stamped?: boolean;
  /** every unit of the registered arm, in order */
  units: U[];
  conditionOf(unit: U): string;
  /** the unit of resumption: a unit and the row it produced have the same key */
  unitKey(unit: U): string;
  rowKey(row: R): string;
  /** replace the browser process after this many units (Firefox's parent grows with every context) */
  browserBatch?: number;
  /** how the arm's browsers are launched (default: launchBrowser of the plan's browser), e.g. through the fault proxy */
  launch?: () => Promise<LaunchedBrowser>;
  worker?: { setup(browser: LaunchedBrowser, index: number): Promise<W>; teardown(worker: W): Promise<void> };
  runUnit(unit: U, ctx: UnitContext<W>): Promise<RowBody<R>>;
  /** attempts after an infrastructure failure (a throw); each failed attempt is kept */
  retries?: number;
  /** end the run (exit 1, the rows so far kept) once this many rows in a row are the plan's failures:
   *  an outside agent that gives no claim condition after condition is broken, not measured */
  stopAfter?: { failures: number; isFailure(row: R): boolean; message(count: number, last: R): string };
  /** the command's exit code once every unit has its row (default 0), e.g. the evidence gates': the run log records it */
  exitOf?(rows: R[], smoke: boolean): number;
  /** a selection the study makes from its own flags (e.g. Arm B's --cases), as an --only pattern */
  only?: string;
  /** the part of the arm this run is, where an amendment names one (Arm B: its sample's manifest id; browser/firefox-path.ts) */
  scope?: string;
}

export interface RunFlags {
  smoke: boolean;
  workers: number;
  /** browser processes the workers are spread over (default 1): Firefox's parent does every context's BiDi work on one thread */
  browsers?: number;
  only?: string;
  redo?: string;
  /** "i/n": this machine's share of the units */
  shard?: string;
}

export interface RunResult<R> {
  runId: string;
  file: string;
  rows: R[];
  written: number;
  resumed: number;
  failedAttempts: number;
  gated: Gated;
}

export function parseShard(shard: string | undefined): { index: number; count: number } | null {
  if (shard === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(shard);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`--shard takes i/n with 1 ≤ i ≤ n (e.g. 1/4), not ${JSON.stringify(shard)}`);
  return { index, count };
}

/** A pattern's top-level alternatives (^(a|b|c)$, a|b, (a|b)) that match none of the ids; [] for a pattern without any. */
export function unmatchedAlternatives(only: string, ids: string[]): string[] {
  const start = only.startsWith('^') ? '^' : '';
  const end = only.endsWith('$') && !only.endsWith('\\$') ? '$' : '';
  let body = only.slice(start.length, only.length - end.length);
  if (body.startsWith('(') && closingParen(body, 0) === body.length - 1) body = body.slice(body.startsWith('(?:') ? 3 : 1, -1);
  const alternatives = splitTopLevel(body);
  if (alternatives.length < 2) return [];
  return alternatives.filter((alt) => {
    let re: RegExp;
    try { re = new RegExp(`${start}(?:${alt})${end}`); } catch { return false; }
    return !ids.some((id) => re.test(id));
  });
}

/** the index of the parenthesis closing the one at `from` (escapes and classes skipped), or -1 */
function closingParen(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(text, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

const classEnd = (text: string, from: number) => {
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ']') return i;
  }
  return text.length;
};

/** a pattern split on the | outside any group or class */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(body, i);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) { parts.push(body.slice(from, i)); from = i + 1; }
  }
  parts.push(body.slice(from));
  return parts;
}

/** Whether the unit at index i of the plan belongs to the shard (units i, i+n, i+2n … from the i-th). */
export const inShard = (index: number, shard: { index: number; count: number } | null) => !shard || index % shard.count === shard.index - 1;

/** Run ids of a plan start with this (make merge names the merged run by it too). */
export const runPrefixOf = (p: Pick<RunPlan<unknown, TraceRow, unknown>, 'study' | 'arm' | 'browser' | 'runPrefix'>, shard: { index: number; count: number } | null = null) =>
  `${p.runPrefix ?? `${p.study}-${p.arm}-${p.browser}`}${shard ? `-shard${shard.index}of${shard.count}` : ''}`;

export async function runArm<U, R extends TraceRow, W = void>(
  flags: RunFlags,
  plan: (gated: Gated) => Promise<RunPlan<U, R, W>> | RunPlan<U, R, W>,
): Promise<RunResult<R>> {
  if (flags.only && !flags.smoke) throw new UsageError(messages.onlyNeedsSmoke());
  // 1–2
  const gated = await gate();
  const p = await plan(gated);
  // 3
  const only = p.only ?? flags.only;
  let pattern: RegExp | null = null;
  try {
    pattern = only ? new RegExp(only) : null;
  } catch (cause) {
    throw new UsageError(`--only takes a regular expression: ${(cause as Error).message}`, cause);
  }
  const shard = parseShard(flags.shard);
  // a list of ids (a|b|c) where one matches nothing is a typo, not a smaller slice: name it, run nothing
  const unknown = only ? unmatchedAlternatives(only, p.units.map((u) => p.conditionOf(u))) : [];
  if (unknown.length) throw new UsageError(messages.unknownOnlyIds(only!, unknown));
  const units = p.units.filter((u, i) => (!pattern || pattern.test(p.conditionOf(u))) && inShard(i, shard));
  if (!units.length) throw new UsageError(messages.noUnitMatches(only, flags.shard));
  const selection = [only ? `--only ${only}` : '', shard ? `--shard ${flags.shard}` : ''].filter(Boolean).join(' ') || null;
  const registered = !flags.smoke;
  // the arm's Firefox path (browser/firefox-path.ts), for every browser this process launches
  const firefoxPath = p.browser === 'firefox' ? firefoxPathFor(p.study, p.arm, process.env, p.scope) : null;
  if (registered && firefoxPath === 'lean' && outputRoot() === root() && !leanPathAdopted(p.study, p.arm, p.scope)) throw new UsageError(messages.firefoxLeanNotRegistered(`${p.study} ${p.arm}${p.scope ? ` (${p.scope})` : ''}`));
  if (registered) {
    const others = runningSessions().filter((s) => s.registered);
    if (others.length && !shard) throw new RStackError(messages.registeredRunBusy(others.map((s) => s.session)), { exitCode: 2 });
  }
  // 4–5: one process writes the slot's run file; the lock is held until the end line and manifest are written
  const prefix = runPrefixOf(p, shard);
  const lock = lockRunSlot({ study: p.study, arm: p.arm, prefix, smoke: flags.smoke, selection });
  // the path holds for this run only: a process that runs several arms (a test, the bench) gives each its own
  const pathBefore = process.env.FIREFOX_TRIAL_PATH;
  if (firefoxPath) process.env.FIREFOX_TRIAL_PATH = firefoxPath;
  try {
    return await writeRun(flags, p, { gated, units, selection, registered, prefix });
  } finally {
    if (pathBefore === undefined) delete process.env.FIREFOX_TRIAL_PATH; else process.env.FIREFOX_TRIAL_PATH = pathBefore;
    lock.release();
  }
}

/** Steps 4–8 of runArm, with the run slot's lock held. */
async function writeRun<U, R extends TraceRow, W>(
  flags: RunFlags,
  p: RunPlan<U, R, W>,
  s: { gated: Gated; units: U[]; selection: string | null; registered: boolean; prefix: string },
): Promise<RunResult<R>> {
  const { gated, units, selection, registered } = s;
  const chosen = chooseRun({ study: p.study, arm: p.arm, prefix: s.prefix, stamped: p.stamped ?? true }, { smoke: flags.smoke, redo: flags.redo, selection, total: units.length });
  const writer = TraceWriter.open<R>({ study: p.study, arm: p.arm, runId: chosen.runId, key: p.rowKey, smoke: flags.smoke });
  const todo = units.filter((u) => !writer.has(p.unitKey(u)));
  const readRows = () => (fs.existsSync(writer.file) ? readJsonl<R>(writer.file, { schema: 'trace' }) : []);
  const label = `${p.study}/${p.arm} ${p.browser}`;
  // in a scratch folder (make reproduce REDO=1) the console names the file in full: data/raw/… there is not the record's
  const shown = outputRoot() === root() ? rel(writer.file) : writer.file;
  if (!todo.length) {
    // a resume of a complete run writes no row, so it records nothing: no run-log session (the
    // provenance tables would read it as one), no data manifest rewrite
    log({ kind: 'info', message: messages.runComplete(label, units.length, shown) });
    return { runId: chosen.runId, file: writer.file, rows: readRows(), written: writer.written, resumed: chosen.resumed, failedAttempts: 0, gated };
  }
  /** a write that failed (a full disk) as one line: what, the rows safely on disk, that a resume continues */
  const inFull = (f: string) => (outputRoot() === root() ? f : path.join(outputRoot(), f));
  const writeFailed = (error: WriteError, alsoUnwritten: string[] = []) =>
    new RStackError(messages.runWriteFailed(inFull(error.file), error.reason, shown, countRows(writer.file), units.length, alsoUnwritten.map(inFull)), { exitCode: 1, cause: error });
  log({ kind: 'info', message: messages.runStart(label, units.length, writer.existingRows, flags.workers, shown, flags.smoke) });
  let start: RunLogLine;
  try {
    start = logStart({
      run_id: chosen.runId, study: p.study, arm: p.arm, browser: p.browser, file: rel(writer.file), registered,
      rows: writer.existingRows, selection, redo: flags.redo ?? null, total: units.length, workers: flags.workers,
      ...((flags.browsers ?? 1) > 1 ? { browsers: Math.min(flags.browsers!, flags.workers) } : {}),
      executable: browserExecutable(p.browser),
      ...(p.browser === 'firefox' && firefoxPathFromEnv() === 'lean' ? { firefox_path: 'lean' as const } : {}),
    });
  } catch (error) {
    throw error instanceof WriteError ? writeFailed(error) : error;
  }
  const excluded = [...chosen.excluded];
  let exit = 1;
  let failedAttempts = 0;
  let failure: { error: unknown } | null = null;
  // a cancellation (Slurm's scancel, a pod's stop, Ctrl-C) closes the browsers and ends the run as one
  // cancelled attempt, not as a failed attempt per unit it cut short. The signal often comes twice (to
  // the process group, and passed on by bin/rstackbench): the first one counts
  const cancel = new AbortController();
  let cancelledBy: NodeJS.Signals | null = null;
  const cutShort: string[] = [];
  const onSignal = (signal: NodeJS.Signals) => {
    cancelledBy ??= signal;
    cancel.abort();
  };
  for (const s of cancelSignals) process.on(s, onSignal);
  const attempts = freeName(paths.excludedArm(p.study, p.arm), `${chosen.runId}.failed-attempts`, '.jsonl');
  const keepAttempt = (line: Record<string, unknown>) => {
    if (!fs.existsSync(attempts)) {
      recordExclusion({ file: rel(attempts), from: null, reason: `failed attempts of run ${chosen.runId} (infrastructure errors, or the run cancelled; a failed unit was ${p.retries ? 'retried' : 'not retried'})` });
      excluded.push(rel(attempts));
    }
    appendDurable(attempts, toLine({ run_id: chosen.runId, ...line, at: new Date().toISOString() }));
  };
  try {
    // 6
    const keepFailure = (unit: U, attempt: number, error: unknown) => {
      // what a cancellation cuts short is the cancellation's, kept once below
      if (cancelledBy) { cutShort.push(p.unitKey(unit)); return; }
      failedAttempts++;
      const message = firstLine(error);
      keepAttempt({ condition_id: p.conditionOf(unit), unit: p.unitKey(unit), attempt, error: message });
      log({ kind: 'warn', message: messages.attemptFailed(p.conditionOf(unit), attempt, message) });
    };
    const startedMs = performance.now();
    let done = 0;
    let failuresInARow = 0;
    await executeUnits(p, todo, {
      workers: flags.workers, browsers: flags.browsers, runId: chosen.runId, ledgerHead: gated.ledgerHead, smoke: flags.smoke,
      onFailure: keepFailure, cancel: cancel.signal,
      onRow: (row) => {
        writer.append(row);
        done++;
        log({ kind: 'progress', label, done, total: todo.length, startedMs, nowMs: performance.now(), failed: failedAttempts });
        const stop = p.stopAfter;
        if (!stop || stop.failures <= 0) return;
        failuresInARow = stop.isFailure(row) ? failuresInARow + 1 : 0;
        // thrown in the pool: no worker takes another unit, the units already taken finish (pool.ts)
        if (failuresInARow === stop.failures) throw new RStackError(stop.message(failuresInARow, row), { exitCode: 1 });
      },
    });
    exit = p.exitOf ? p.exitOf(readRows(), flags.smoke) : 0;
  } catch (error) {
    exit = error instanceof RStackError ? error.exitCode : 1;
    failure = { error };
    if (cancelledBy) {
      const signal: NodeJS.Signals = cancelledBy;
      exit = 128 + (os.constants.signals[signal] ?? 1);
      const unscored = [...new Set(cutShort)];
      try {
        keepAttempt({ condition_id: null, unit: null, attempt: null, error: `cancelled by ${signal}`, cancelled: true, in_flight: unscored });
      } catch (keepError) {
        if (!(keepError instanceof WriteError)) throw keepError;
      }
      failure = { error: new RStackError(messages.runCancelled(signal, countRows(writer.file), units.length, shown, unscored.length), { exitCode: exit, cause: error }) };
    }
  } finally {
    for (const s of cancelSignals) process.off(s, onSignal);
  }
  // 7: the end line counts the complete rows on disk (a torn line is not one). On a full disk the end
  // line and the manifest may fail too: they are named in the run's one line, never thrown instead of it.
  const unwritten: WriteError[] = [];
  try {
    logEnd(start, { rows: countRows(writer.file), exit, excluded });
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    unwritten.push(error);
  }
  try {
    await updateDataManifest();
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    unwritten.push(error);
  }
  if (failure) {
    const first = failure.error;
    if (first instanceof WriteError) throw writeFailed(first, unwritten.map((u) => u.file));
    for (const u of unwritten) log({ kind: 'warn', message: u.message });
    throw first;
  }
  if (unwritten.length) throw writeFailed(unwritten[0]!, unwritten.slice(1).map((u) => u.file));
  // 8
  const rows = readRows();
  return { runId: chosen.runId, file: writer.file, rows, written: writer.written, resumed: chosen.resumed, failedAttempts, gated };
}

/** Timing a unit's condition reports to whoever runs it (the bench): what the condition itself imposes. */
export interface UnitPhases {
  /** ms the condition's own protocol takes: the agent's work and the waits to the boundary or horizon */
  imposedMs: number | null;
}

/** the signals that cancel a run (pipeline/kernel/run.ts writeRun) */
const cancelSignals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export interface ExecuteOptions<U, R> {
  workers: number;
  /** browser processes (default 1); worker i runs in process i mod browsers */
  browsers?: number;
  runId: string;
  ledgerHead: string;
  smoke: boolean;
  onRow(row: R, unit: U, timing: { phases: UnitPhases; startedMs: number; endedMs: number }): void;
  onFailure(unit: U, attempt: number, error: unknown): void;
  /** how a browser is obtained (default: launchBrowser of the plan's browser); the bench passes its own */
  launch?: () => Promise<LaunchedBrowser>;
  /** once aborted: the browsers are closed, no unit is started or retried */
  cancel?: AbortSignal;
}

/**
 * Step 6 of the skeleton, on its own: runs units through the browser pool — `browsers` processes,
 * each replaced every `browserBatch` units, `workers` units at once (worker i in process i mod
 * browsers), each worker with its own resources, a unit retried after an infrastructure failure —
 * and hands each finished row (header added) to onRow. Writes nothing itself: runArm writes the run
 * file, the bench a scratch file.
 */
export async function executeUnits<U, R extends TraceRow, W>(
  p: Pick<RunPlan<U, R, W>, 'study' | 'arm' | 'browser' | 'browserBatch' | 'worker' | 'runUnit' | 'retries' | 'launch'>,
  units: readonly U[],
  options: ExecuteOptions<U, R>,
): Promise<void> {
  const processes = Math.max(1, Math.min(options.browsers ?? 1, options.workers));
  // a batch is counted per process: each browser is replaced after its share of browserBatch units
  const batchSize = (p.browserBatch ?? Infinity) * processes;
  const launch = options.launch ?? p.launch ?? (() => launchBrowser(p.browser));
  for (let from = 0; from < units.length; from += batchSize) {
    const batch = units.slice(from, from + batchSize);
    const launched: LaunchedBrowser[] = [];
    // the units in flight fail at once (their browser is gone) and the pool ends
    const closeBrowsers = () => { for (const l of launched) void l.browser.close().catch(() => undefined); };
    options.cancel?.addEventListener('abort', closeBrowsers, { once: true });
    try {
      if (options.cancel?.aborted) throw new RStackError('the run was cancelled');
      for (let i = 0; i < processes; i++) launched.push(await launch());
      await runPool<U, { own: W; launched: LaunchedBrowser }>({
        items: batch,
        workers: options.workers,
        setup: async (index) => {
          const mine = launched[index % processes]!;
          return { own: p.worker ? await p.worker.setup(mine, index) : (undefined as W), launched: mine };
        },
        teardown: (w) => (p.worker ? p.worker.teardown(w.own) : Promise.resolve()),
        work: async (unit, { own: worker, launched: mine }) => {
          if (options.cancel?.aborted) throw new RStackError('the run was cancelled');
          const phases: UnitPhases = { imposedMs: null };
          const ctx: UnitContext<W> = { browser: mine, worker, runId: options.runId, ledgerHead: options.ledgerHead, smoke: options.smoke, phases };
          const startedMs = performance.now();
          let body: RowBody<R> | undefined;
          for (let attempt = 1; body === undefined; attempt++) {
            try {
              body = await p.runUnit(unit, ctx);
            } catch (error) {
              options.onFailure(unit, attempt, error);
              if (attempt > (p.retries ?? 0) || options.cancel?.aborted) throw error;
            }
          }
          const endedMs = performance.now();
          const header: RowHeader = {
            schema: 'trace/1', study: p.study, arm: p.arm, run_id: options.runId,
            browser: { name: mine.name, version: mine.version }, ledger_head: options.ledgerHead,
          };
          options.onRow({ ...header, ...body, ...(options.smoke ? { smoke: true } : {}) } as R, unit, { phases, startedMs, endedMs });
        },
      });
    } finally {
      options.cancel?.removeEventListener('abort', closeBrowsers);
      await Promise.all(launched.map((l) => l.browser.close().catch(() => undefined)));
    }
  }
}
