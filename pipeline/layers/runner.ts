// Runs a list of `layers` traces — (condition, policy, scoring) units — through a worker pool of
// fresh browser contexts, appending one validated row per trace, resuming where a crashed run
// stopped, printing progress, and returning every row of the run (old and new).
import { performance } from 'node:perf_hooks';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersTask } from '../../fixtures/layers/task.ts';
import { log } from '../../core/log.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { launchBrowser, type BrowserName } from '../browser/launch.ts';
import { runPool } from '../kernel/pool.ts';
import { TraceWriter } from '../kernel/trace-writer.ts';
import { layersPolicies } from './policies/index.ts';
import { runLayersTrace, type LayersOutcome, type Scoring } from './condition.ts';
import fs from 'node:fs';

/** traces per browser process (see below) */
export const BROWSER_BATCH = 150;

export interface LayersUnit { task: LayersTask; policy: string; scoring: Scoring }

export type LayersRow = LayersOutcome & {
  schema: 'trace/1';
  study: 'layers';
  arm: 'main' | 'horizon' | 'pilot';
  run_id: string;
  condition_id: string;
  policy: string;
  browser: { name: BrowserName; version: string };
  ledger_head: string;
  smoke?: boolean;
};

export const unitKey = (row: { condition_id: string; policy: string; horizon_ms: number }) =>
  `${row.condition_id}|${row.policy}|${row.horizon_ms}`;
const horizonOf = (s: Scoring) => (s.kind === 'after-policy' ? s.boundaryMs : s.horizonMs);

export async function runLayersUnits(options: {
  arm: LayersRow['arm'];
  runId: string;
  units: LayersUnit[];
  browserName: BrowserName;
  ledgerHead: string;
  workers: number;
  smoke: boolean;
  label: string;
}): Promise<{ rows: LayersRow[]; file: string; resumed: number }> {
  const writer = TraceWriter.open<LayersRow>({ study: 'layers', arm: options.arm, runId: options.runId, key: unitKey, smoke: options.smoke });
  const todo = options.units.filter((u) => !writer.has(unitKey({ condition_id: u.task.condition_id, policy: u.policy, horizon_ms: horizonOf(u.scoring) })));
  const resumed = options.units.length - todo.length;
  if (resumed) log({ kind: 'info', message: `${options.label}: resuming ${writer.file}: ${resumed} traces already written` });
  // A fresh context per trace isolates traces; the browser process itself is replaced every
  // BROWSER_BATCH traces, because Firefox's parent process grows with every closed context
  // (3 GB after about 570 contexts here) and slows down everything after it.
  const startedMs = performance.now();
  let done = resumed;
  for (let from = 0; from < todo.length; from += BROWSER_BATCH) {
    const batch = todo.slice(from, from + BROWSER_BATCH);
    const launched = await launchBrowser(options.browserName);
    try {
      await runPool<LayersUnit, FixtureServer>({
        items: batch,
        workers: options.workers,
        setup: () => startFixtureServer(),
        teardown: (server) => server.close(),
        work: async (unit, server) => {
          const outcome = await runLayersTrace({ browser: launched.browser, server, task: unit.task, policy: layersPolicies[unit.policy]!, scoring: unit.scoring });
          writer.append({
            schema: 'trace/1',
            study: 'layers',
            arm: options.arm,
            run_id: options.runId,
            condition_id: unit.task.condition_id,
            policy: unit.policy,
            browser: { name: launched.name, version: launched.version },
            ledger_head: options.ledgerHead,
            ...outcome,
            ...(options.smoke ? { smoke: true } : {}),
          });
          done++;
          if (done === options.units.length || done % 10 === 0) {
            log({ kind: 'progress', label: options.label, done: done - resumed, total: todo.length, startedMs, nowMs: performance.now() });
          }
        },
      });
    } finally {
      await launched.browser.close();
    }
  }
  const rows = fs.existsSync(writer.file) ? readJsonl<LayersRow>(writer.file, { schema: 'trace' }) : [];
  return { rows, file: writer.file, resumed };
}
