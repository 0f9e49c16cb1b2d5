// make run-pilot: execute a frozen plan file of the planning pilot — no model involved — on the run
// skeleton (pipeline/kernel/run.ts), one `layers` trace row of arm `pilot` per plan.
//
//   PLANS=data/plans/<run>.jsonl (or the one frozen plan file) ─▶ gate: the ledger head holds it
//   ─▶ units: its plans, each joined to its sampled condition ─▶ the interpreter in Chromium
//      (pipeline/pilot/condition.ts) ─▶ data/raw/layers/pilot/layers-pilot-<browser>-<plans>-<time>.jsonl
//   ─▶ the analysis's Table V on the run's rows
//
// Reads: the ledger, the plan file, data/tasks/layers.jsonl, data/tasks/pilot-sample.jsonl.
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { paths, rel } from '../../core/paths.ts';
import { GateError, UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import { runSummary } from '../../analysis/run-summary.ts';
import { parseBrowserName } from '../browser/launch.ts';
import { runArm } from '../kernel/run.ts';
import { headOf, readLedger } from '../kernel/ledger.ts';
import { armOptions } from '../layers/arms.ts';
import { runFlags } from '../kernel/run-flags.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { readPilotSample } from './sample.ts';
import { frozenPlanFiles, readPlanFile, type PlanLine } from './plan-file.ts';
import { runPilotTrace } from './condition.ts';

interface PilotUnit { line: PlanLine; task: LayersTask }

/** The plan file to execute: the one named, or the only one the ledger head holds. */
function choosePlanFile(named: string | undefined): string {
  if (named) {
    const file = path.resolve(paths.root(), named);
    if (!fs.existsSync(file)) throw new UsageError(`PLANS: no file ${named}`);
    return file;
  }
  const head = headOf(readLedger());
  const frozen = head ? frozenPlanFiles(head.entry) : [];
  if (!frozen.length) throw new UsageError(messages.pilot.noFrozenPlans());
  if (frozen.length > 1) throw new UsageError(`several frozen plan files; name one with PLANS=…:\n${frozen.map((f) => `  ${f}`).join('\n')}`);
  return path.join(paths.root(), frozen[0]!);
}

type Values = { browser?: string } & Parameters<typeof runFlags>[0];

/** One plan file: its plans, gated and joined to their sampled conditions, through the run skeleton. */
async function runPlanFile(file: string, values: Values): Promise<number> {
  const browser = parseBrowserName(values.browser);
  const planRun = path.basename(file, '.jsonl');
  const result = await runArm<PilotUnit, LayersRow, FixtureServer>(runFlags(values), (gated) => {
    if (!(rel(file) in gated.entry.files)) throw new GateError(messages.pilot.plansUnfrozen(rel(file)), [rel(file)]);
    const plans = readPlanFile(file);
    const sample = new Map(readPilotSample(readLayersTasks()).map((s) => [s.task.condition_id, s.task]));
    const units = plans.map((line, i) => {
      const task = sample.get(line.condition_id);
      if (!task) throw new UsageError(`${rel(file)}:${i + 1}: condition ${line.condition_id} is not in data/tasks/pilot-sample.jsonl`);
      return { line, task };
    });
    return {
      study: 'layers',
      arm: 'pilot',
      browser,
      runPrefix: `layers-pilot-${browser}-${planRun}`,
      units,
      conditionOf: (u) => u.task.condition_id,
      unitKey: (u) => u.line.plan_id,
      rowKey: (r) => r.plan_id ?? '',
      worker: { setup: () => startFixtureServer(), teardown: (server) => server.close() },
      runUnit: async (u, ctx) => ({
        condition_id: u.task.condition_id,
        policy: 'plan-interpreter',
        ...(await runPilotTrace({ browser: ctx.browser.browser, server: ctx.worker, task: u.task, plan: u.line.plan })),
        prompt: u.line.prompt,
        plan_id: u.line.plan_id,
        model: u.line.model,
        planning_ms: u.line.planning_ms,
        tokens: u.line.usage?.total_tokens ?? null,
      }),
    };
  });
  process.stdout.write(
    `layers/pilot ${browser}: ${result.rows.length} rows in ${rel(result.file)} (plans ${rel(file)})\n\n` +
      runSummary(result.rows, [{ name: 'layers_pilot', hide: ['browser'] }, { name: 'layers_pilot_paired', hide: ['browser'] }]) + '\n',
  );
  const noClaim = result.rows.filter((r) => r.error).length;
  if (noClaim) log({ kind: 'warn', message: `${noClaim} plans ended without a claim (a control not found, or a bound reached): see the rows' error field` });
  return 0;
}

await main({
  name: 'make run-pilot',
  summary: 'execute a frozen plan file of the planning pilot (no model needed) and print Table V on its rows',
  usage: 'make run-pilot [PLANS=data/plans/<run>.jsonl] [ARGS="--smoke --only cards-state"]',
  options: {
    plans: { type: 'string', help: 'the plan file (default: the one plan file frozen in the ledger head)' },
    all: { type: 'boolean', default: false, help: 'every plan file frozen in the ledger head, one run each; none: say so and exit 0 (make reproduce)' },
    ...armOptions,
  },
  async run(values) {
    if (values.all) {
      const head = headOf(readLedger());
      const frozen = head ? frozenPlanFiles(head.entry) : [];
      if (!frozen.length) {
        log({ kind: 'warn', message: messages.pilot.skipped() });
        return 0;
      }
      for (const f of frozen) await runPlanFile(path.join(paths.root(), f), values);
      return 0;
    }
    return runPlanFile(choosePlanFile(values.plans ?? (process.env.PLANS || undefined)), values);
  },
});
