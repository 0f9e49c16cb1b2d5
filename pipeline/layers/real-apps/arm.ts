// The real-applications arm on the run skeleton (pipeline/kernel/run.ts): what `make run-real-apps`
// runs. The five fault layers on WordPress and MediaWiki, made by the fault proxy from each
// family's spec, scored by each application's own database.
//
//   data/tasks/layers-real-apps.jsonl ─▶ units (condition × reference policy) ─▶ both apps up
//   (fixtures/sites.ts: started here unless running) ─▶ one fault proxy for the run ─▶ the browser
//   launched through it ─▶ per unit: condition.ts ─▶ data/raw/layers/real-apps/<run>.jsonl
//
// One condition at a time: each application has one database, which a condition resets and reads.
// A condition whose proxy or application failed is kept in data/excluded/ and run again.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from '../../../core/cli.ts';
import { UsageError } from '../../../core/errors.ts';
import { log } from '../../../core/log.ts';
import { messages } from '../../../core/messages.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import { paths, rel } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { RStackError } from '../../../core/errors.ts';
import type { LayersRealAppsTask, LayersRow } from '../../../core/contracts.ts';
import { startFaultProxy, type FaultProxy, type LayerTableName } from '../../../fixtures/proxy/index.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { layersWordpressApp } from '../../../fixtures/wordpress/layers-site.ts';
import { mediawikiApp } from '../../../fixtures/mediawiki/site.ts';
import { startSites, type SitesUp } from '../../../fixtures/sites.ts';
import { runSummary, type SummaryTable } from '../../../analysis/run-summary.ts';
import { launchBrowser, parseBrowserName, type BrowserName } from '../../browser/launch.ts';
import { runArm, type RowBody, type RunPlan, type UnitPhases } from '../../kernel/run.ts';
import { runFlags, runOptions } from '../../kernel/run-flags.ts';
import { BROWSER_BATCH } from '../arms.ts';
import { runRealAppTrace, type RealAppStage } from './condition.ts';
import { realAppPolicyAgent } from './agent.ts';
import { realAppPolicies } from './policies.ts';
import type { AppName } from './families.ts';

export const realAppsTaskFile = () => path.join(paths.tasks(), 'layers-real-apps.jsonl');

/**
 * The fault proxy's layer table the registered arm runs with: version 1 (prereg/layers-real-apps.md)
 * ran with layers-v1.json, whose Verification never forwards the write. The seed's construct (a
 * later save commits: layers.json) enters a registered run only through the amendment that adopts
 * it; until then it is tried with --layer-table current and --smoke.
 */
export const REAL_APPS_LAYER_TABLE: LayerTableName = 'v1';
const layerTableNames: readonly LayerTableName[] = ['current', 'v1'];

/** --layer-table: the registered arm's table, or (smoke only) another of the proxy's. */
export function chosenLayerTable(value: string | undefined, smoke: boolean, registered: LayerTableName): LayerTableName {
  if (value === undefined) return registered;
  if (!layerTableNames.includes(value as LayerTableName)) throw new UsageError(`--layer-table ${value}: one of ${layerTableNames.join(', ')} (fixtures/proxy/plan.ts)`);
  if (value !== registered && !smoke) throw new UsageError(`--layer-table ${value}: the registered arm runs with its protocol's table (${registered}); another table only with --smoke, until an amendment adopts it`);
  return value as LayerTableName;
}

/** The frozen conditions of the arm, each validated against schemas/layers-real-apps-task.schema.json. */
export function readRealAppsTasks(file = realAppsTaskFile()): LayersRealAppsTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks-real-apps, then make freeze`, { exitCode: 2 });
  return readJsonl<LayersRealAppsTask>(file, { schema: 'layers-real-apps-task' });
}

export interface RealAppsUnit { task: LayersRealAppsTask; policy: string }
/** a worker's browser: the run's, or the one that replaced it after it went away (own) */
export interface RealAppsWorker { launched: NonNullable<RealAppStage['browser']>; own: NonNullable<RealAppStage['browser']> | null }

/** attempts after an infrastructure failure (the proxy or an application failed under the condition) */
export const INFRASTRUCTURE_RETRIES = 2;

export const realAppsUnitKey = (row: { condition_id: string; policy: string }) => `${row.condition_id}|${row.policy}`;

export function realAppsUnits(tasks: LayersRealAppsTask[] = readRealAppsTasks()): RealAppsUnit[] {
  return tasks.flatMap((task) => realAppPolicies.map((p) => ({ task, policy: p.name })));
}

/**
 * The arm's browsers, through the run's fault proxy: how to launch one, and, before a unit, the
 * worker's browser replaced if it went away under the last one (a crash, a signal).
 */
export function proxiedBrowsers(browser: BrowserName, resources: ReturnType<typeof realAppsResources>) {
  const launch = async () => {
    const { proxy } = await resources.get();
    return launchBrowser(browser, null, { proxy: { server: proxy.url, ca: proxy.ca } });
  };
  const connected = async (worker: RealAppsWorker): Promise<void> => {
    if (worker.launched.isConnected()) return;
    await worker.own?.close().catch(() => undefined);
    worker.own = worker.launched = (await launch()).browser;
  };
  return { launch, connected };
}

/** One unit's row: the condition's application and the run's proxy, the reference policy as an agent, the trace. */
export async function realAppRow(u: RealAppsUnit, browser: RealAppsWorker['launched'], resources: ReturnType<typeof realAppsResources>, phases?: UnitPhases): Promise<RowBody<LayersRow>> {
  const { apps, proxy } = await resources.get();
  const app = apps[u.task.app];
  const policy = realAppPolicies.find((p) => p.name === u.policy)!;
  const agent = realAppPolicyAgent(policy, u.task, app.origin);
  const { result: _result, ...outcome } = await runRealAppTrace({ stage: { browser, proxy, app }, task: u.task, agent, phases });
  return { condition_id: u.task.condition_id, policy: u.policy, ...outcome };
}

export function realAppsPlan(options: { browser: BrowserName; resources: ReturnType<typeof realAppsResources>; units?: RealAppsUnit[]; arm?: 'real-apps' | 'transport' }): RunPlan<RealAppsUnit, LayersRow, RealAppsWorker> {
  const { browser, resources } = options;
  const { launch, connected } = proxiedBrowsers(browser, resources);
  return {
    study: 'layers',
    arm: options.arm ?? 'real-apps',
    browser,
    units: options.units ?? realAppsUnits(),
    conditionOf: (u) => u.task.condition_id,
    unitKey: (u) => realAppsUnitKey({ condition_id: u.task.condition_id, policy: u.policy }),
    rowKey: realAppsUnitKey,
    browserBatch: BROWSER_BATCH,
    retries: INFRASTRUCTURE_RETRIES,
    launch,
    // a browser that went away under a unit (a crash, a signal) is replaced before the unit is tried again
    worker: { setup: async (launched) => ({ launched: launched.browser, own: null }), teardown: async (w) => { await w.own?.close().catch(() => undefined); } },
    runUnit: async (u, ctx) => {
      await connected(ctx.worker);
      return realAppRow(u, ctx.worker.launched, resources, ctx.phases);
    },
  };
}

/**
 * What the arm needs from outside the browser, made on first use (a complete run, resumed, needs
 * none of it): both applications up (started here unless they run already) and the run's fault
 * proxy; close() stops what was started here.
 */
export function realAppsResources(layerTable: LayerTableName = REAL_APPS_LAYER_TABLE): { get(): Promise<{ apps: Record<AppName, RealApp>; proxy: FaultProxy }>; close(): Promise<void> } {
  let made: Promise<{ apps: Record<AppName, RealApp>; proxy: FaultProxy; sites: SitesUp }> | undefined;
  return {
    get: () => (made ??= (async () => {
      const sites = await startSites(['layers-wordpress', 'mediawiki']);
      try {
        return { apps: { wordpress: layersWordpressApp(), mediawiki: mediawikiApp() }, proxy: await startFaultProxy({ layerTable }), sites };
      } catch (error) {
        await sites.stop();
        throw error;
      }
    })()),
    async close() {
      if (!made) return;
      const m = await made.catch(() => undefined);
      await m?.proxy.close();
      await m?.sites.stop();
    },
  };
}

export const summaryTables: SummaryTable[] = [
  { name: 'layers_real_apps', hide: ['browser', 'mean_actions'], where: (r) => r.family === 'all' },
];

export const realAppsOptions = {
  browser: { type: 'string', help: 'chromium (default, or $BROWSER) or firefox' },
  'layer-table': { type: 'string', help: 'the fault proxy\'s layer table: v1 (the registered arm\'s, default) or current (the seed\'s Verification: a later save commits; --smoke only until adopted)' },
  ...runOptions('unit'),
} as const;

export const realAppsCommand: Command<typeof realAppsOptions> = {
  name: 'make run-real-apps',
  summary: 'the five fault layers on real applications: every condition of data/tasks/layers-real-apps.jsonl × the 3 reference policies, on WordPress and MediaWiki behind the fault proxy, scored by their databases; prints AS / VTS / FC per application, policy and layer',
  usage: 'make run-real-apps [BROWSER=firefox] [ARGS="--smoke --only wordpress-general-title"]',
  options: realAppsOptions,
  async run(values) {
    const browser = parseBrowserName(values.browser);
    const flags = runFlags(values);
    if (flags.workers !== 1 || (flags.browsers ?? 1) !== 1) throw new UsageError(messages.realAppsOneAtATime());
    // the gate (run.ts) refuses a prereg/ that differs from the ledger head: a prereg found here is frozen
    if (!flags.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === 'real-apps')) throw new UsageError(messages.realAppsArmUnregistered());
    const resources = realAppsResources(chosenLayerTable(values['layer-table'], flags.smoke, REAL_APPS_LAYER_TABLE));
    let result;
    try {
      result = await runArm(flags, () => realAppsPlan({ browser, resources }));
    } finally {
      await resources.close();
    }
    process.stdout.write(`layers/real-apps ${browser}: ${result.rows.length} rows in ${rel(result.file)}\n\n${runSummary(result.rows, summaryTables)}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
    return 0;
  },
};
