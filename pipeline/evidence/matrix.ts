// The evidence matrix run, shared by run-controlled (Chromium) and run-arm-a (Firefox):
//
//   gate() ─▶ data/tasks/evidence-controlled.jsonl ─▶ one browser, N workers (each its own fixture
//   server, one fresh context per condition) ─▶ TraceWriter (data/raw/evidence/<arm>/<run>.jsonl,
//   or data/excluded/ for --smoke) ─▶ summary, gates ─▶ updateDataManifest()
//
// Resumable: a registered run continues in the arm's existing run file after its last complete
// row (--redo "reason" moves that file aside to data/excluded/ and starts from zero). Per-condition outcomes do not depend on the worker count
// (each condition has its own context and server), but timing does; the prereg fixes --workers 1.
import fs from 'node:fs';
import { gate } from '../kernel/gate.ts';
import { TraceWriter } from '../kernel/trace-writer.ts';
import { updateDataManifest } from '../kernel/manifest.ts';
import { launchBrowser, type BrowserName } from '../browser/launch.ts';
import { startFixtureServer } from '../../fixtures/server.ts';
import type { EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { RStackError, UsageError } from '../../core/errors.ts';
import { runPool } from '../kernel/pool.ts';
import { chooseRun } from '../kernel/run-files.ts';
import { runGates, type GateResult } from '../../core/evidence/gates.ts';
import { formatPaired, formatSummary, pairedWithinRun, summarize } from '../../core/evidence/summary.ts';
import { runCondition, warmUp, type EvidenceRow } from './condition.ts';
import { processNow } from '../browser/clock.ts';

export interface MatrixOptions {
  arm: 'controlled' | 'arm-a';
  browser: BrowserName;
  tasksFile: string;
  smoke: boolean;
  workers: number;
  /** a regular expression over condition ids: a development slice (smoke only; gates may go unexercised) */
  only?: string;
  /** move the registered run aside with this reason and start again from zero */
  redo?: string;
}

export interface MatrixResult { file: string; rows: EvidenceRow[]; tasks: EvidenceTask[]; gates: GateResult[]; gatesPassed: boolean }

export function readTasks(file: string): EvidenceTask[] {
  if (!fs.existsSync(file)) throw new RStackError(messages.evidenceNoTasks(rel(file)), { exitCode: 2 });
  return readJsonl<EvidenceTask>(file, { schema: 'evidence-task' }).sort((a, b) => a.order - b.order);
}

export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  if (options.only && !options.smoke) throw new UsageError('--only selects a slice, which is a smoke run: add --smoke');
  const { ledgerHead } = await gate();
  const all = readTasks(options.tasksFile);
  const pattern = options.only ? new RegExp(options.only) : null;
  const tasks = all.filter((t) => !pattern || pattern.test(t.condition_id));
  if (!tasks.length) throw new UsageError(`no condition matches ${options.only}`);
  const runId = chooseRun('evidence', options.arm, options.browser, { smoke: options.smoke, redo: options.redo });
  const writer = TraceWriter.open<EvidenceRow>({ study: 'evidence', arm: options.arm, runId, key: (r) => r.condition_id, smoke: options.smoke });
  const pending = tasks.filter((t) => !writer.has(t.condition_id));
  log({ kind: 'info', message: messages.evidenceRunStart(options.arm, options.browser, pending.length, writer.existingRows, rel(writer.file)) });

  if (pending.length) {
    const launched = await launchBrowser(options.browser);
    const started = processNow();
    const label = `evidence/${options.arm} ${options.browser}`;
    const run = { arm: options.arm, runId, ledgerHead, smoke: options.smoke };
    let done = 0;
    try {
      await runPool({
        items: pending,
        workers: options.workers,
        setup: async () => {
          const server = await startFixtureServer();
          await warmUp(launched, server, pending[0]!);
          return server;
        },
        teardown: (server) => server.close(),
        work: async (task, server) => {
          let row: EvidenceRow;
          try {
            row = await runCondition(launched, server, task, run);
          } catch (error) {
            // an infrastructure failure (a page that never became ready), not an outcome: one retry
            log({ kind: 'warn', message: messages.evidenceRetry(task.condition_id, (error as Error).message.split('\n')[0]!) });
            row = await runCondition(launched, server, task, run);
          }
          writer.append(row);
          log({ kind: 'progress', label, done: ++done, total: pending.length, startedMs: started, nowMs: processNow() });
        },
      });
    } finally {
      await launched.browser.close();
    }
  }

  const rows = readJsonl<EvidenceRow>(writer.file, { schema: 'trace' });
  const byId = new Map(all.map((t) => [t.condition_id, t]));
  const gates = runGates(rows.map((r) => ({ condition_id: r.condition_id, scenario: r.scenario, events: r.events, target: byId.get(r.condition_id)!.target })));
  await updateDataManifest();
  return { file: writer.file, rows, tasks, gates, gatesPassed: gates.every((g) => g.failed.length === 0 && g.checked > 0) };
}

/** The flags both evidence runners take (run-controlled, run-arm-a). */
export const matrixOptions = {
  smoke: { type: 'boolean', default: false },
  workers: { type: 'string', default: '1' },
  only: { type: 'string' },
  redo: { type: 'string' },
  tasks: { type: 'string' },
} as const;

export const matrixHelp = (arm: string) => ({
  smoke: `a development run: rows go to data/excluded/evidence/${arm}/`,
  workers: 'conditions run at once (the prereg fixes 1: timing, not outcomes, depends on it)',
  only: 'a regular expression over condition ids (only with --smoke; some gates may go unexercised)',
  redo: 'REASON: move the registered run aside to data/excluded/ with this reason, and run again from zero',
  tasks: 'the task file (default: data/tasks/evidence-controlled.jsonl)',
});

/** A smoke run must pass every gate (exit 1); a registered run's failed gates are reported, not hidden, and it exits 0. */
export function gateExit(result: MatrixResult, smoke: boolean): number {
  if (result.gatesPassed) return 0;
  const ids = result.gates.filter((g) => g.failed.length || !g.checked).map((g) => g.id);
  if (smoke) {
    log({ kind: 'error', message: messages.evidenceGatesFailed(ids) });
    return 1;
  }
  log({ kind: 'warn', message: messages.evidenceGatesFailedRegistered(ids) });
  return 0;
}

export function formatGates(gates: GateResult[]): string {
  const lines = ['instrumentation gates:'];
  for (const g of gates) {
    const verdict = g.checked === 0 ? 'NOT EXERCISED' : g.failed.length ? `FAIL ${g.failed.length}/${g.checked}` : `pass ${g.checked}/${g.checked}`;
    lines.push(`  ${verdict.padEnd(14)} ${g.id}: ${g.description}${g.failed.length ? `\n                 failing: ${g.failed.slice(0, 8).join(', ')}${g.failed.length > 8 ? ' …' : ''}` : ''}`);
  }
  return lines.join('\n');
}

/** The summary every evidence run prints on exit. */
export function formatRun(result: MatrixResult): string {
  return [
    `${rel(result.file)}`,
    formatSummary(summarize(result.rows)),
    '',
    formatPaired('paired within the run (exact McNemar on discordant rows):', pairedWithinRun(result.rows)),
    '',
    formatGates(result.gates),
  ].join('\n');
}
