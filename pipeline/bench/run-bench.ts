// The bench's flow (make bench):
//
//   slices      a seeded, stratified sample of each arm (slices.ts): layers main in Chromium and in
//               Firefox (every template × layer × severity × policy), the evidence matrix in Chromium
//               (the controlled arm) and in Firefox (Arm A; every scenario × delay)
//   blocks      each slice cut into interleaving blocks; in each block both variants run the same
//               units, in alternating order (A B, B A, A B …), so the machine's noise hits both alike
//   variants    compare mode: A = naive, B = ours (harness.ts); load mode: A = ours, B = ours under a
//               CPU hog that takes every core (cpu-hog.ts), started before and stopped after each B block
//   outcomes    rows to a scratch folder (never data/, the ledger, data/runs.jsonl or manifests/);
//               flips (compare.ts, flagged rows apart) between A and B and of each against the
//               registered rows of data/raw
//   results     wall times, ratios, traces/s, harness overhead per trace, peak RSS → results JSON
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TraceRow } from '../../core/contracts.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { log } from '../../core/log.ts';
import { rel } from '../../core/paths.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import { gate } from '../kernel/gate.ts';
import { existingRun } from '../kernel/run-files.ts';
import { codeState } from '../kernel/run-log.ts';
import type { RunPlan } from '../kernel/run.ts';
import { layersPlan, unitsFor, type LayersUnit } from '../layers/arms.ts';
import { matrixPlan, readTasks } from '../evidence/matrix.ts';
import { evidenceTasksPath } from '../evidence/tasks-file.ts';
import { compareRuns, unitOf, timingSensitive } from '../steps/compare.ts';
import type { BrowserName } from '../browser/launch.ts';
import { runGates, type GateInput } from '../evidence/gates.ts';
import { blocksOf, stratifiedSample } from './slices.ts';
import { layerTableOf, readRealAppsTasks, realAppsPlan, realAppsResources, realAppsUnits, type RealAppsUnit } from '../layers/real-apps/arm.ts';
import type { LayersRow } from '../../core/contracts.ts';
import { runBlock, type BlockOutcome, type Harness } from './harness.ts';
import { startCpuHog, type CpuHog } from './cpu-hog.ts';

export const sliceIds = ['layers-chromium', 'layers-firefox', 'evidence-chromium', 'evidence-firefox', 'real-apps-chromium'] as const;
export type SliceId = (typeof sliceIds)[number];

export interface BenchOptions {
  mode: 'compare' | 'load';
  slices: SliceId[];
  /** layers units per browser (288: a third of the main arm's 864) */
  layersSize: number;
  /** evidence rows per browser */
  evidenceSize: number;
  /** real-applications units (Chromium), stratified over app × layer × policy */
  realAppsSize: number;
  blocks: number;
  seed: string;
  naive: Harness;
  /** ours, per slice: each slice takes its own worker count */
  ours: Record<SliceId, Harness>;
  /** load mode: the hog's bound in seconds (it is stopped after each loaded block anyway) */
  hogSeconds: number;
  scratchDir: string;
}

interface Slice {
  id: SliceId;
  browser: BrowserName;
  kind: 'layers' | 'evidence' | 'real-apps';
  units: unknown[];
  plan: (units: unknown[]) => RunPlan<unknown, TraceRow, unknown>;
  registeredFile: string | undefined;
}

const layersStratum = (u: LayersUnit) => `${u.task.template}|${u.task.layer}|${u.task.severity}|${u.policy}`;
const evidenceStratum = (t: EvidenceTask) => `${t.scenario}|${t.delay_ms}`;
const realAppsStratum = (u: RealAppsUnit) => `${u.task.app}|${u.task.layer}|${u.policy}`;

function buildSlices(o: BenchOptions, realApps: ReturnType<typeof realAppsResources> | null): Slice[] {
  return o.slices.map((id): Slice => {
    if (id === 'real-apps-chromium') {
      // version 1, the registered one: its units, its layer table, its registered rows; both
      // harnesses through the same applications (worker k > 0 on its own copies, arm.ts)
      return {
        id, browser: 'chromium', kind: 'real-apps', units: stratifiedSample(realAppsUnits(readRealAppsTasks()), realAppsStratum, o.realAppsSize, o.seed),
        plan: (units) => realAppsPlan({ browser: 'chromium', resources: realApps!, units: units as RealAppsUnit[] }) as RunPlan<unknown, TraceRow, unknown>,
        registeredFile: existingRun({ study: 'layers', arm: 'real-apps', prefix: 'layers-real-apps-chromium', stamped: true }, false),
      };
    }
    if (id === 'evidence-chromium' || id === 'evidence-firefox') {
      // the same stratified rows in either browser: the controlled arm in Chromium, Arm A in Firefox
      const tasks = stratifiedSample(readTasks(evidenceTasksPath()), evidenceStratum, o.evidenceSize, o.seed);
      const [browser, arm] = id === 'evidence-chromium' ? (['chromium', 'controlled'] as const) : (['firefox', 'arm-a'] as const);
      return {
        id, browser, kind: 'evidence', units: tasks,
        plan: (units) => matrixPlan(arm, browser, units as EvidenceTask[]) as RunPlan<unknown, TraceRow, unknown>,
        registeredFile: existingRun({ study: 'evidence', arm, prefix: `evidence-${arm}-${browser}`, stamped: true }, false),
      };
    }
    const browser: BrowserName = id === 'layers-firefox' ? 'firefox' : 'chromium';
    return {
      id, browser, kind: 'layers', units: stratifiedSample(unitsFor('main'), layersStratum, o.layersSize, o.seed),
      plan: (units) => layersPlan('main', browser, units as LayersUnit[]) as RunPlan<unknown, TraceRow, unknown>,
      registeredFile: existingRun({ study: 'layers', arm: 'main', prefix: `layers-main-${browser}`, stamped: true }, false),
    };
  });
}

interface VariantTotals { harness: Harness; loaded: boolean; blocks: BlockOutcome<TraceRow>[] }

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r1 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);
const r3 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);

/** The real-applications slice's own figures: the restore before each condition, and CPU per trace by kind of process. */
function realAppsFigures(v: VariantTotals, n: number) {
  const cpu = v.blocks.map((b) => b.cpuS).filter((c): c is NonNullable<typeof c> => c !== null);
  if (!cpu.length) return {};
  const resets = v.blocks.flatMap((b) => b.rows).map((r) => (r as unknown as LayersRow).real_app?.reset_ms).filter((x): x is number => typeof x === 'number');
  const groups = Object.keys(cpu[0]!) as (keyof (typeof cpu)[number])[];
  return {
    reset_ms_median: r1(median(resets)),
    reset_ms_max: resets.length ? r1(Math.max(...resets)) : null,
    cpu_s_per_trace: Object.fromEntries(groups.map((g) => [g, r3(sum(cpu.map((c) => c[g])) / n)])),
  };
}

function summarize(v: VariantTotals) {
  const rows = v.blocks.flatMap((b) => b.rows);
  const wallMs = sum(v.blocks.map((b) => b.wallMs));
  const imposed = v.blocks.flatMap((b) => b.imposedMs);
  const perUnitOverhead = v.blocks.flatMap((b) => b.unitMs.map((u, i) => u - (b.imposedMs[i] ?? NaN))).filter(Number.isFinite);
  const n = rows.length;
  const imposedMean = imposed.length ? sum(imposed) / imposed.length : null;
  return {
    harness: v.harness.name,
    workers: v.harness.workers,
    browsers: v.harness.browsers ?? 1,
    firefox_path: v.harness.firefoxPath ?? 'playwright',
    loaded: v.loaded,
    traces: n,
    wall_s: r3(wallMs / 1000),
    block_wall_s: v.blocks.map((b) => r3(b.wallMs / 1000)),
    traces_per_s: r3(n / (wallMs / 1000)),
    wall_ms_per_trace: r1(wallMs / n),
    imposed_ms_mean: r1(imposedMean),
    overhead_ms_per_trace: imposedMean === null ? null : r1(wallMs / n - imposedMean / v.harness.workers),
    unit_overhead_ms_median: r1(median(perUnitOverhead)),
    peak_rss_mb: Math.round(Math.max(...v.blocks.map((b) => b.peakRssBytes)) / 2 ** 20),
    ...realAppsFigures(v, n),
    failed_attempts: sum(v.blocks.map((b) => b.failedAttempts)),
    browser: rows[0]?.browser ?? null,
  };
}

/** A flip, with each side's error (a policy's `locator.click: Timeout …` is the machine stalling, issue 16 item 3). */
export interface FlippedRow { slice: SliceId; unit: string; between: string; a: string; b: string; errors: [string | null, string | null] }

function flipsOf(slice: SliceId, names: [string, string], a: TraceRow[], b: TraceRow[], registered: TraceRow[] | null) {
  const pairs: [string, TraceRow[], TraceRow[]][] = [[`${names[0]}-vs-${names[1]}`, a, b]];
  if (registered) {
    const keys = new Set(a.map(unitOf));
    const reg = registered.filter((r) => keys.has(unitOf(r)));
    pairs.push([`${names[0]}-vs-registered`, a, reg], [`${names[1]}-vs-registered`, b, reg]);
  }
  const counts: Record<string, { same: number; flips: number; flagged_flips: number; missing: number }> = {};
  const rows: FlippedRow[] = [];
  for (const [between, x, y] of pairs) {
    const c = compareRuns(x, y);
    counts[between] = { same: c.same, flips: c.flips.length, flagged_flips: c.flaggedFlips, missing: c.onlyA.length + c.onlyB.length };
    const errorOf = (rows: TraceRow[], key: string) => rows.find((r) => unitOf(r) === key)?.error ?? null;
    rows.push(...c.flips.map((f) => ({ slice, unit: f.key, between, a: f.a, b: f.b, errors: [errorOf(x, f.key), errorOf(y, f.key)] as [string | null, string | null] })));
  }
  const flagged = a.concat(b).filter(timingSensitive).length;
  return { counts, rows, flaggedRows: flagged };
}


export async function runBench(o: BenchOptions) {
  const loadBefore = os.loadavg();
  const code = codeState();
  const { ledgerHead } = await gate();
  const realApps = o.slices.includes('real-apps-chromium') ? realAppsResources(layerTableOf(1)) : null;
  const slices = buildSlices(o, realApps);
  fs.mkdirSync(o.scratchDir, { recursive: true });
  const names: [string, string] = o.mode === 'compare' ? ['naive', 'ours'] : ['unloaded', 'loaded'];
  const stamp = path.basename(o.scratchDir);
  const perSlice: Record<string, unknown> = {};
  const flippedRows: FlippedRow[] = [];
  let hog: CpuHog | null = null;
  const hogPids = () => hog?.pids ?? new Set<number>();
  try {
    for (const slice of slices) {
      const ours = o.ours[slice.id];
      const variants: VariantTotals[] = o.mode === 'compare'
        ? [{ harness: o.naive, loaded: false, blocks: [] }, { harness: ours, loaded: false, blocks: [] }]
        : [{ harness: ours, loaded: false, blocks: [] }, { harness: ours, loaded: true, blocks: [] }];
      const blocks = blocksOf(slice.units, o.blocks);
      log({ kind: 'info', message: `bench ${slice.id}: ${slice.units.length} units in ${blocks.length} blocks; ${names[0]} (${variants[0]!.harness.workers} worker(s)) and ${names[1]} (${variants[1]!.harness.workers}) alternate` });
      for (const [b, units] of blocks.entries()) {
        const order = b % 2 === 0 ? [0, 1] : [1, 0];
        for (const which of order) {
          const v = variants[which]!;
          const name = names[which]!;
          if (v.loaded) hog = startCpuHog({ maxSeconds: o.hogSeconds });
          try {
            v.blocks.push(await runBlock({
              plan: slice.plan(units), units, harness: v.harness, ledgerHead,
              runId: `bench-${slice.id}-${name}-${stamp}`,
              scratchFile: path.join(o.scratchDir, `${slice.id}-${name}.jsonl`),
              label: `${slice.id} ${name} block ${b + 1}/${blocks.length}`,
              excludeFromRss: hogPids,
              ...(slice.kind === 'real-apps' ? { cpuRoots: () => realApps!.pids() } : {}),
            }));
          } finally {
            hog?.stop();
            hog = null;
          }
        }
      }
      const [a, bVar] = variants.map(summarize);
      const registered = slice.registeredFile ? readJsonl<TraceRow>(slice.registeredFile, { schema: 'trace' }) : null;
      const flips = flipsOf(slice.id, names, variants[0]!.blocks.flatMap((x) => x.rows), variants[1]!.blocks.flatMap((x) => x.rows), registered);
      flippedRows.push(...flips.rows);
      const blockRatios = variants[0]!.blocks.map((x, i) => x.wallMs / variants[1]!.blocks[i]!.wallMs);
      // an evidence slice's rows face the instrumentation gates, as a run's do: the rows of each variant
      // that fail one, by gate (the load trial's question is whether overlap under load still passes)
      const gatesFailed = slice.kind === 'evidence'
        ? Object.fromEntries(variants.map((v, i) => [names[i]!, Object.fromEntries(runGates(v.blocks.flatMap((x) => x.rows) as unknown as GateInput[]).filter((g) => g.failed.length).map((g) => [g.id, g.failed]))]))
        : null;
      perSlice[slice.id] = {
        units: slice.units.length,
        ...(gatesFailed ? { gates_failed: gatesFailed } : {}),
        registered_file: slice.registeredFile ? rel(slice.registeredFile) : null,
        [names[0]]: a,
        [names[1]]: bVar,
        ratio: r3(a!.wall_s! / bVar!.wall_s!),
        block_ratios: blockRatios.map(r3),
        block_ratio_median: r3(median(blockRatios)),
        rows_flagged_timing_sensitive: flips.flaggedRows,
        flips: flips.counts,
        flips_unflagged: new Set(flips.rows.map((f) => f.unit)).size,
      };
    }
  } finally {
    hog?.stop();
    await realApps?.close();
  }
  const distinctFlips = new Set(flippedRows.map((f) => `${f.slice}|${f.unit}`)).size;
  const chosenOurs = Object.fromEntries(o.slices.map((id) => [id, o.ours[id]]));
  const ratioOf = (id: SliceId) => (perSlice[id] as { ratio: number } | undefined)?.ratio ?? null;
  return {
    schema: 'bench-results/1',
    mode: o.mode,
    generated_at: new Date().toISOString(),
    commit: code.commit,
    dirty: code.dirty,
    machine: { cpus: os.cpus().length, mem_total_mb: Math.round(os.totalmem() / 2 ** 20), load_before: loadBefore.map((x) => r3(x)), load_after: os.loadavg().map((x) => r3(x)) },
    seed: o.seed,
    blocks: o.blocks,
    harnesses: o.mode === 'compare'
      ? { naive: o.naive, ours: chosenOurs }
      : { unloaded: chosenOurs, loaded: { ...chosenOurs, cpu_hog: `${os.cpus().length} busy-looping processes` } },
    definitions: {
      ratio: `${names[0]} wall time / ${names[1]} wall time on the layers Chromium slice (each slice's own ratio under slices.<id>.ratio); wall times include each block's browser launch and worker set-up`,
      overhead_ms_per_trace: 'wall time per trace minus the mean time the condition itself imposes (agent begins → boundary + grace for layers; action → horizon + slack for evidence) divided by the worker count',
      unit_overhead_ms_median: "median over traces of the trace's own time in the executor minus what its condition imposed (context and page set-up, tear-down)",
      flips: `distinct units whose outcome (AS/VTS/FC/claim; each evidence policy's verdict) differs between ${names[0]} and ${names[1]}, or of either from the registered rows, flagged timing-sensitive in neither row`,
    },
    ratio: ratioOf('layers-chromium'),
    ratios: Object.fromEntries(o.slices.map((id) => [id, ratioOf(id)])),
    flips: distinctFlips,
    flipped_rows: flippedRows,
    slices: perSlice,
    scratch: rel(o.scratchDir),
  };
}
