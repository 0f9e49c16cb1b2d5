// The two harnesses the bench compares, and one block of units run by either of them.
//
//   naive  the obvious harness, as the registered runs were made: one trace at a time, one browser
//          (Debian's full Chromium, /usr/bin/chromium, or Firefox ESR), a fresh context per trace
//          set up and torn down in full, Playwright's default waits (goto waits for `load`)
//   ours   the same conditions through the run skeleton's executor (kernel/run.ts executeUnits) at the
//          bench's defaults: several workers (contexts) per browser, each worker its own fixture
//          server, and Chromium's headless shell when Debian's chromium-headless-shell is installed
//
// Both run the very same condition code (layers/condition.ts, evidence/condition.ts) and write the
// same row fields; only the executor, the worker count and the Chromium binary differ.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import type { TraceRow } from '../../core/contracts.ts';
import { log } from '../../core/log.ts';
import { launchBrowser, launchOptions, type BrowserName, type LaunchedBrowser } from '../browser/launch.ts';
import type { FirefoxPath } from '../browser/firefox-path.ts';
import { executeUnits, type RunPlan } from '../kernel/run.ts';
import { sampleRss } from './memory.ts';
import { sampleCpu, type CpuGroup } from './cpu.ts';


export type HarnessName = 'naive' | 'ours';

export interface Harness {
  name: HarnessName;
  /** units at once (browser contexts, over every browser process) */
  workers: number;
  /** browser processes the workers are spread over (default 1) */
  browsers?: number;
  /** Chromium's executable (Firefox is always Debian's firefox-esr) */
  chromium: string;
  /** the path a Firefox trial takes (browser/firefox-path.ts); playwright when not given, whatever FIREFOX_TRIAL_PATH says */
  firefoxPath?: FirefoxPath;
}

/** The browser a harness launches: always local (never BROWSER_WS_ENDPOINT), Chromium from its executable. */
export async function launchFor(harness: Harness, name: BrowserName): Promise<LaunchedBrowser> {
  if (name === 'firefox') return launchBrowser('firefox', null, { firefoxPath: harness.firefoxPath ?? 'playwright' });
  const browser = await chromium.launch({ ...launchOptions('chromium'), executablePath: harness.chromium });
  return { name, version: browser.version(), browser };
}

export interface BlockOutcome<R> {
  rows: R[];
  wallMs: number;
  /** per unit: what the condition itself imposed (agent's work and waits to its boundary or horizon) */
  imposedMs: number[];
  /** per unit: its time inside the executor, set-up and tear-down included */
  unitMs: number[];
  peakRssBytes: number;
  failedAttempts: number;
  /** CPU seconds by kind of process (cpu.ts), where the slice names the processes beside this one's tree (the real apps') */
  cpuS: Record<CpuGroup, number> | null;
}

/** Runs one block of units with one harness; rows go to scratchFile (never data/). */
export async function runBlock<U, R extends TraceRow, W>(options: {
  plan: RunPlan<U, R, W>;
  units: U[];
  harness: Harness;
  runId: string;
  ledgerHead: string;
  scratchFile: string;
  label: string;
  /** processes the memory sampler leaves out (the CPU hog) */
  excludeFromRss?: () => ReadonlySet<number>;
  /** processes outside this one's tree whose CPU the block reads by kind (the real apps' apache2 and mariadbd) */
  cpuRoots?: () => number[];
}): Promise<BlockOutcome<R>> {
  const { plan, units, harness } = options;
  const out: BlockOutcome<R> = { rows: [], wallMs: 0, imposedMs: [], unitMs: [], peakRssBytes: 0, failedAttempts: 0, cpuS: null };
  const sampler = sampleRss({ exclude: options.excludeFromRss });
  const cpu = options.cpuRoots ? sampleCpu({ roots: options.cpuRoots }) : null;
  const started = performance.now();
  try {
    await executeUnits(plan, units, {
      workers: harness.workers,
      browsers: harness.browsers,
      runId: options.runId,
      ledgerHead: options.ledgerHead,
      smoke: true,
      // a plan that launches its own (the real apps': through the worker's fault proxy) keeps it
      launch: plan.launch ?? (() => launchFor(harness, plan.browser)),
      onFailure: (unit, attempt, error) => {
        out.failedAttempts++;
        log({ kind: 'warn', message: `${options.label}: ${plan.conditionOf(unit)} attempt ${attempt} failed: ${(error as Error)?.message?.split('\n')[0]}` });
      },
      onRow: (row, _unit, timing) => {
        out.rows.push(row);
        out.unitMs.push(timing.endedMs - timing.startedMs);
        if (timing.phases.imposedMs !== null) out.imposedMs.push(timing.phases.imposedMs);
        // the files a trace keeps beside its row (a real app's HAR and store reads) are not the row's
        const { files: _files, ...plain } = row as typeof row & { files?: unknown };
        fs.appendFileSync(options.scratchFile, JSON.stringify(plain) + '\n');
        log({ kind: 'progress', label: options.label, done: out.rows.length, total: units.length, startedMs: started, nowMs: performance.now(), failed: out.failedAttempts });
      },
    });
  } finally {
    out.wallMs = performance.now() - started;
    out.peakRssBytes = sampler.stop();
    out.cpuS = cpu?.stop() ?? null;
  }
  return out;
}
