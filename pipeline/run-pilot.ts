// make run-pilot: execute a frozen plan file of the planning pilot — no model involved — and write
// one `layers` trace row (arm pilot) per plan.
//
//   PLANS=data/plans/<run>.jsonl (or the one frozen plan file) ─▶ gate: the ledger head holds it
//   ─▶ per plan: its sampled condition ─▶ the interpreter in Chromium (pipeline/pilot/condition.ts)
//   ─▶ data/raw/layers/pilot/layers-pilot-<browser>-<run>.jsonl (resumes by plan_id) ─▶ summary
//
// Reads: the ledger, the plan file, data/tasks/layers.jsonl, data/tasks/pilot-sample.jsonl.
// Writes: the run file (--smoke: data/excluded/layers/pilot/), manifests/data.sha256.
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../core/cli.ts';
import { log } from '../core/log.ts';
import { paths, rel } from '../core/paths.ts';
import { GateError, UsageError } from '../core/errors.ts';
import { readJsonl } from '../core/jsonl.ts';
import { startFixtureServer } from '../fixtures/server.ts';
import { launchBrowser, parseBrowserName } from './browser/launch.ts';
import { gate } from './kernel/gate.ts';
import { headOf, readLedger } from './kernel/ledger.ts';
import { TraceWriter } from './kernel/trace-writer.ts';
import { excludeFile } from './kernel/exclude.ts';
import { updateDataManifest } from './kernel/manifest.ts';
import { readLayersTasks } from './layers/read-tasks.ts';
import { readPilotSample } from './pilot/sample.ts';
import { frozenPlanFiles, readPlanFile } from './pilot/plan-file.ts';
import { runPilotTrace, type PilotRow } from './pilot/condition.ts';
import { pilotSummary } from './pilot/summary.ts';
import { messages } from '../core/messages.ts';


const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');

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

await main({
  name: 'make run-pilot',
  summary: 'execute a frozen plan file of the planning pilot (no model needed) and print AS / VTS / FC per prompt, per layer, paired',
  usage: 'make run-pilot [PLANS=data/plans/<run>.jsonl] [ARGS="--smoke --only cards-state"]',
  options: {
    plans: { type: 'string' },
    all: { type: 'boolean', default: false },
    browser: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    redo: { type: 'string' },
  },
  help: {
    plans: 'the plan file (default: the one plan file frozen in the ledger head)',
    all: 'every plan file frozen in the ledger head, one run each; none: say so and exit 0 (make reproduce)',
    browser: 'chromium (default, or $BROWSER) or firefox',
    smoke: 'a development run: written to data/excluded/, never registered',
    only: 'a regular expression over plan ids (only with --smoke)',
    redo: 'REASON: move the registered run of this plan file aside to data/excluded/ with this reason, and run again',
  },
  async run(values) {
    if (values.only && !values.smoke) throw new UsageError('--only selects a slice, which is a smoke run: add --smoke');
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

/** One plan file: gate, the plans joined to their sampled conditions, the traces, the summary. */
async function runPlanFile(file: string, values: { browser?: string; smoke?: boolean; only?: string; redo?: string }): Promise<number> {
  const { ledgerHead, entry } = await gate();
  if (!(rel(file) in entry.files)) {
    throw new GateError(`refusing to run: ${rel(file)} is not in the ledger head; plans are executed only once frozen (put it under data/plans/ and make freeze REASON="pilot plans")`, [rel(file)]);
  }
  const browserName = parseBrowserName(values.browser);
  const plans = readPlanFile(file);
  const sample = new Map(readPilotSample(readLayersTasks()).map((s) => [s.task.condition_id, s.task]));
  plans.forEach((p, i) => {
    if (!sample.has(p.condition_id)) throw new UsageError(`${rel(file)}:${i + 1}: condition ${p.condition_id} is not in data/tasks/pilot-sample.jsonl`);
  });
  const pattern = values.only ? new RegExp(values.only) : null;
  const selected = plans.filter((p) => !pattern || pattern.test(p.plan_id));
  if (!selected.length) throw new UsageError(`no plan id matches ${values.only}`);
  const planRun = path.basename(file, '.jsonl');
  const smoke = values.smoke ?? false;
  const runId = smoke ? `layers-pilot-${browserName}-smoke-${planRun}-${stamp()}` : `layers-pilot-${browserName}-${planRun}`;
  const registered = path.join(paths.rawArm('layers', 'pilot'), `${runId}.jsonl`);
  if (!smoke && values.redo && fs.existsSync(registered)) excludeFile(registered, 'layers', 'pilot', `superseded by a redo: ${values.redo}`);
  const writer = TraceWriter.open<PilotRow>({ study: 'layers', arm: 'pilot', runId, key: (r) => r.plan_id, smoke });
  const todo = selected.filter((p) => !writer.has(p.plan_id));
  const label = `layers/pilot ${browserName}`;
  log({ kind: 'info', message: `${label}: ${todo.length} of ${selected.length} plans of ${rel(file)} to execute, run ${runId}${smoke ? ' (smoke)' : ''}` });
  if (todo.length) {
    const launched = await launchBrowser(browserName);
    const server = await startFixtureServer();
    try {
      for (const p of todo) {
        const outcome = await runPilotTrace({ browser: launched.browser, server, task: sample.get(p.condition_id)!, plan: p.plan });
        writer.append({
          schema: 'trace/1', study: 'layers', arm: 'pilot', run_id: runId, condition_id: p.condition_id, policy: 'plan-interpreter',
          browser: { name: launched.name, version: launched.version }, ledger_head: ledgerHead,
          ...outcome,
          prompt: p.prompt, plan_id: p.plan_id, model: p.model, planning_ms: p.planning_ms, tokens: p.usage?.total_tokens ?? null,
          ...(smoke ? { smoke: true } : {}),
        });
      }
    } finally {
      await launched.browser.close();
      await server.close();
    }
  }
  await updateDataManifest();
  const rows = readJsonl<PilotRow>(writer.file, { schema: 'trace' });
  process.stdout.write(pilotSummary(rows, `${label}: ${rows.length} rows in ${rel(writer.file)} (plans ${rel(file)})`) + '\n');
  return 0;
}
