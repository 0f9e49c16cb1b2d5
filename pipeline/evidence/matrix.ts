// The evidence study's controlled matrix on the run skeleton (pipeline/kernel/run.ts), shared by
// run-controlled (Chromium, CDP) and run-arm-a (Firefox, WebDriver BiDi):
//
//   data/tasks/evidence-controlled.jsonl ─▶ runArm: one browser, N workers (each its own fixture
//   server, warmed up once; one fresh context per condition) ─▶ data/raw/evidence/<arm>/<run>.jsonl
//   ─▶ the instrumentation gates ─▶ the summary (analysis/run-summary.ts)
//
// Per-condition outcomes do not depend on the worker count (each condition has its own context and
// server), but timing does; how many rows a registered run may overlap is the arm's amendments'
// (REGISTERED_MAX_WORKERS). A condition whose page never became ready is an infrastructure failure:
// it is retried once, and the failed attempt is kept.
import fs from 'node:fs';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { RStackError, UsageError } from '../../core/errors.ts';
import { runGates, type GateResult } from './gates.ts';
import type { EvidenceRow } from '../../analysis/rows.ts';
import { runSummary, type SummaryTable } from '../../analysis/run-summary.ts';
import type { BrowserName } from '../browser/launch.ts';
import { runArm, type RunFlags, type RunPlan } from '../kernel/run.ts';
import { runOptions } from '../kernel/run-flags.ts';
import { runCondition, warmUp } from './condition.ts';
import { browsersFor, checkOverlap, type Overlap } from './overlap.ts';

export interface MatrixOptions extends RunFlags {
  arm: 'controlled' | 'arm-a';
  browser: BrowserName;
  tasksFile: string;
}

export interface MatrixResult { file: string; rows: EvidenceRow[]; tasks: EvidenceTask[]; gates: GateResult[]; gatesPassed: boolean }

export function readTasks(file: string): EvidenceTask[] {
  if (!fs.existsSync(file)) throw new RStackError(messages.evidenceNoTasks(rel(file)), { exitCode: 2 });
  return readJsonl<EvidenceTask>(file, { schema: 'evidence-task' }).sort((a, b) => a.order - b.order);
}

export function matrixPlan(arm: MatrixOptions['arm'], browser: BrowserName, tasks: EvidenceTask[]): RunPlan<EvidenceTask, EvidenceRow, FixtureServer> {
  return {
    study: 'evidence',
    arm,
    browser,
    units: tasks,
    conditionOf: (t) => t.condition_id,
    unitKey: (t) => t.condition_id,
    rowKey: (r) => r.condition_id,
    retries: 1,
    worker: {
      setup: async (launched) => {
        const server = await startFixtureServer();
        await warmUp(launched, server, tasks[0]!);
        return server;
      },
      teardown: (server) => server.close(),
    },
    runUnit: (task, ctx) => runCondition(ctx.browser, ctx.worker, task, ctx.phases),
  };
}

/** The most rows a registered run may have at once, and the prereg that says so (the preregs said 1). */
export const REGISTERED_MAX_WORKERS = { controlled: 16, 'arm-a': 2 } as const;
const maxWorkersSource = { controlled: 'prereg/evidence-controlled-amendment-2.md', 'arm-a': 'prereg/evidence-arm-a-amendment-4.md' } as const;
/** The most rows at once in one browser process of a registered run (null: no bound): Arm A's
 *  overlapping rows each take a Firefox of their own, as several in one Firefox hung it (amendment 3). */
export const REGISTERED_ROWS_PER_BROWSER = { controlled: null, 'arm-a': 1 } as const;

const overlapOf = (arm: MatrixOptions['arm']): Overlap => ({ most: REGISTERED_MAX_WORKERS[arm], perBrowser: REGISTERED_ROWS_PER_BROWSER[arm], source: maxWorkersSource[arm] });

/** The browser processes a run of the arm needs for that many rows at once (Arm A: one each). */
export const registeredBrowsers = (arm: MatrixOptions['arm'], workers: number) => browsersFor(overlapOf(arm), workers);

const passed = (gates: GateResult[]) => gates.every((g) => g.failed.length === 0 && g.checked > 0);

export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  checkOverlap(options.arm, overlapOf(options.arm), options);
  let tasks: EvidenceTask[] = [];
  let gates: GateResult[] = [];
  // the tasks are read after the gate: a changed task file is the gate's refusal (exit 3), not a parse error;
  // the gates are the run's verdict, so the run log records their exit code
  const result = await runArm(options, () => ({
    ...matrixPlan(options.arm, options.browser, (tasks = readTasks(options.tasksFile))),
    exitOf: (rows: EvidenceRow[], smoke: boolean) => {
      const verdict = matrixVerdict(rows, smoke);
      gates = verdict.gates;
      return verdict.exit;
    },
  }));
  return { file: result.file, rows: result.rows, tasks, gates, gatesPassed: passed(gates) };
}

/** The instrumentation gates on a run's finished rows, and the exit code they give the run (and its run log). */
export function matrixVerdict(rows: EvidenceRow[], smoke: boolean): { gates: GateResult[]; exit: number } {
  const gates = runGates(rows);
  return { gates, exit: gatesExit(passed(gates), smoke) };
}

/** The flags both evidence runners take (run-controlled, run-arm-a). */
export const matrixOptions = {
  ...runOptions('condition'),
  tasks: { type: 'string', help: 'the task file (default: data/tasks/evidence-controlled.jsonl)' },
} as const;

/** A smoke run must pass every gate (exit 1); a registered run's failed gates are reported, not hidden, and it exits 0 (amendments 1). */
const gatesExit = (passed: boolean, smoke: boolean) => (passed || !smoke ? 0 : 1);

/** gatesExit, saying which gates failed. */
export function gateExit(result: MatrixResult, smoke: boolean): number {
  if (result.gatesPassed) return gatesExit(true, smoke);
  const ids = result.gates.filter((g) => g.failed.length || !g.checked).map((g) => g.id);
  if (smoke) {
    log({ kind: 'error', message: messages.evidenceGatesFailed(ids) });
  } else {
    log({ kind: 'warn', message: messages.evidenceGatesFailedRegistered(ids) });
  }
  return gatesExit(false, smoke);
}

export function formatGates(gates: GateResult[]): string {
  const lines = ['instrumentation gates:'];
  for (const g of gates) {
    const verdict = g.checked === 0 ? 'NOT EXERCISED' : g.failed.length ? `FAIL ${g.failed.length}/${g.checked}` : `pass ${g.checked}/${g.checked}`;
    lines.push(`  ${verdict.padEnd(14)} ${g.id}: ${g.description}${g.failed.length ? `\n                 failing: ${g.failed.slice(0, 8).join(', ')}${g.failed.length > 8 ? ' …' : ''}` : ''}`);
  }
  return lines.join('\n');
}

/** The analysis's tables a matrix run (and its merge) shows on the run's rows. */
export const summaryTables: SummaryTable[] = [
  { name: 'evidence_confusion', hide: ['arm', 'browser'] },
  { name: 'evidence_latency', hide: ['arm', 'browser'] },
  { name: 'evidence_paired', hide: ['arm', 'browser', 'pairs', 'both_n', 'neither_n'] },
];

/** The summary every evidence run prints on exit: the analysis's tables on the run's rows, then the gates. */
export function formatRun(result: MatrixResult): string {
  return [`${rel(result.file)}`, runSummary(result.rows, summaryTables), '', formatGates(result.gates)].join('\n');
}
