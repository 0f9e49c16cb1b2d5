// What `make run-layers` and `make run-horizon` share: flags, the gate, choosing the run file,
// the units of each arm, the run, the summary, and the data manifest.
import { intOption } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { rel } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import { gate } from '../kernel/gate.ts';
import { updateDataManifest } from '../kernel/manifest.ts';
import { parseBrowserName } from '../browser/launch.ts';
import { readLayersTasks } from './read-tasks.ts';
import { referencePolicies } from './policies/index.ts';
import { runLayersUnits, type LayersUnit } from './runner.ts';
import { chooseRun } from '../kernel/run-files.ts';
import { layersSummary, horizonSummary } from './summary.ts';
import { HORIZONS_MS, MAIN_BOUNDARY_MS } from './protocol.ts';

export const armOptions = {
  browser: { type: 'string' },
  workers: { type: 'string', default: '1' },
  smoke: { type: 'boolean', default: false },
  only: { type: 'string' },
  redo: { type: 'string' },
} as const;

export const armHelp = {
  browser: 'chromium (default, or $BROWSER) or firefox',
  workers: 'parallel browser contexts; outcomes are the same at any count',
  smoke: 'a development run: written to data/excluded/, never registered',
  only: 'a regular expression over condition ids (only with --smoke)',
  redo: 'REASON: move the registered run aside to data/excluded/ with this reason, and run again from zero',
};

type Values = { browser?: string; workers?: string; smoke?: boolean; only?: string; redo?: string };

export function unitsFor(arm: 'main' | 'horizon', only?: string): LayersUnit[] {
  const pattern = only ? new RegExp(only) : null;
  const tasks = readLayersTasks().filter((t) => !pattern || pattern.test(t.condition_id));
  if (arm === 'main') {
    return tasks.flatMap((task) => referencePolicies.map((p) => ({ task, policy: p.name, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const })));
  }
  // the horizon ablation: all State and Verification card tasks, one action, then passive waiting
  return tasks
    .filter((t) => t.template === 'cards' && (t.layer === 'state' || t.layer === 'verification'))
    .flatMap((task) => HORIZONS_MS.map((h) => ({ task, policy: 'single-action', scoring: { kind: 'after-action', horizonMs: h } as const })));
}

export async function runLayersArm(arm: 'main' | 'horizon', values: Values): Promise<number> {
  if (values.only && !values.smoke) throw new UsageError('--only selects a slice, which is a smoke run: add --smoke');
  const { ledgerHead } = await gate();
  const browserName = parseBrowserName(values.browser);
  const workers = intOption(values.workers, 'workers', 1);
  const smoke = values.smoke ?? false;
  const units = unitsFor(arm, values.only);
  if (!units.length) throw new UsageError(`no condition matches ${values.only}`);
  const runId = chooseRun('layers', arm, browserName, { smoke, redo: values.redo });
  const label = `layers/${arm} ${browserName}`;
  log({ kind: 'info', message: `${label}: ${units.length} traces, ${workers} worker${workers > 1 ? 's' : ''}, run ${runId}${smoke ? ' (smoke)' : ''}` });
  const { rows, file } = await runLayersUnits({ arm, runId, units, browserName, ledgerHead, workers, smoke, label });
  await updateDataManifest();
  const title = `${label}: ${rows.length} rows in ${rel(file)}`;
  process.stdout.write((arm === 'main' ? layersSummary(rows, title) : horizonSummary(rows, title)) + '\n');
  const errors = rows.filter((r) => r.error).length;
  if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
  return 0;
}
