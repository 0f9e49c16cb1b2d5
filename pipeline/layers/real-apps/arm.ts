// The real-applications arm on the run skeleton (pipeline/kernel/run.ts): what `make run-real-apps`
// runs. The five fault layers on WordPress and MediaWiki, made by the fault proxy from each
// family's spec, scored by each application's own database.
//
//   data/tasks/layers-real-apps.jsonl ─▶ units (condition × reference policy) ─▶ both apps up
//   (fixtures/sites.ts: started here unless running) ─▶ one fault proxy for the run ─▶ the browser
//   launched through it ─▶ per unit: condition.ts ─▶ data/raw/layers/real-apps/<run>.jsonl
//
// --workers N: worker 0 uses the applications and the proxy as above; worker k > 0 its own copy of
// each application (a database of its own on the same mariadbd, made from the same seeded snapshot,
// served by an apache2 of its own on the app's port + k × REAL_APPS_WORKER_PORT_STEP), its own fault
// proxy and its own browser through it: no state shared between conditions run at once.
// A condition whose proxy or application failed is kept in data/excluded/ and run again.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from '../../../core/cli.ts';
import { UsageError } from '../../../core/errors.ts';
import { log } from '../../../core/log.ts';
import { runningPid, type Service } from '../../../core/service.ts';
import { messages } from '../../../core/messages.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import { lockStore, type HeldLock } from '../../../fixtures/site-locks.ts';
import { outputRoot, paths, rel, root } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { RStackError } from '../../../core/errors.ts';
import type { LayersRealAppsTask, LayersRow } from '../../../core/contracts.ts';
import { startFaultProxy, type FaultProxy, type LayerTableName } from '../../../proxy/src/index.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { layersWordpressApp, startLayersCopy, type LayersWordpress } from '../../../fixtures/wordpress/layers-site.ts';
import { mediawikiApp, startWikiCopy } from '../../../fixtures/mediawiki/site.ts';
import { startSites, type SitesUp } from '../../../fixtures/sites.ts';
import { runSummary, type SummaryTable } from '../../../analysis/run-summary.ts';
import { launchBrowser, parseBrowserName, type BrowserName } from '../../browser/launch.ts';
import { runArm, type RowBody, type RunPlan, type UnitPhases } from '../../kernel/run.ts';
import { runFlags, runOptions } from '../../kernel/run-flags.ts';
import { BROWSER_BATCH } from '../arms.ts';
import { runRealAppTrace, type RealAppStage } from './condition.ts';
import { realAppPolicyAgent } from './agent.ts';
import { realAppPolicies } from './policies.ts';
import { generateRealAppsTasks, realAppsSeed } from './generate.ts';
import type { AppName } from './families.ts';

/** The frozen conditions of a version of the arm: version 1's file, or layers-real-apps-v<N>.jsonl. */
export const realAppsTaskFile = (version = 1) => path.join(paths.tasks(), version >= 2 ? `layers-real-apps-v${version}.jsonl` : 'layers-real-apps.jsonl');

/**
 * The fault proxy's layer table a version of the arm runs with: version 1 (prereg/layers-real-apps.md,
 * and the transport arm's compound pairs) ran with layers-v1.json, whose Verification never
 * forwards the write; version 2 with layers.json, the seed's construct (a later save commits).
 */
export const layerTableOf = (version: number): LayerTableName => (version >= 2 ? 'current' : 'v1');
export const REAL_APPS_VERSIONS = [1, 2] as const;

/**
 * The conditions a run of a version takes: its frozen file; for a smoke run of a version whose
 * conditions are not frozen yet, a fresh generation in memory (its rows go to data/excluded/).
 */
export function realAppsVersionTasks(version: number, smoke: boolean): LayersRealAppsTask[] {
  const file = realAppsTaskFile(version);
  if (fs.existsSync(file) || !smoke) return readRealAppsTasks(file);
  log({ kind: 'info', message: `${rel(file)} is not made yet: its conditions generated in memory for this smoke run (make tasks-real-apps ARGS="--version ${version}", then make freeze with its amendment, registers them)` });
  return generateRealAppsTasks(realAppsSeed(version), undefined, version);
}

/** The frozen conditions of the arm, each validated against schemas/layers-real-apps-task.schema.json. */
export function readRealAppsTasks(file = realAppsTaskFile()): LayersRealAppsTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks-real-apps, then make freeze`, { exitCode: 2 });
  return readJsonl<LayersRealAppsTask>(file, { schema: 'layers-real-apps-task' });
}

export interface RealAppsUnit { task: LayersRealAppsTask; policy: string }
/** a worker's browser: the run's, or its own (a worker k > 0's, through its own proxy; one that replaced a browser that went away); slot: whose applications and proxy it uses */
export interface RealAppsWorker { launched: NonNullable<RealAppStage['browser']>; own: NonNullable<RealAppStage['browser']> | null; slot: number }

/** attempts after an infrastructure failure (the proxy or an application failed under the condition) */
export const INFRASTRUCTURE_RETRIES = 2;

export const realAppsUnitKey = (row: { condition_id: string; policy: string }) => `${row.condition_id}|${row.policy}`;

export function realAppsUnits(tasks: LayersRealAppsTask[] = readRealAppsTasks()): RealAppsUnit[] {
  return tasks.flatMap((task) => realAppPolicies.map((p) => ({ task, policy: p.name })));
}

/**
 * The arm's browsers, each through its worker's fault proxy: how to launch one (the run's: worker
 * 0's), a worker's setup (worker 0 takes the run's browser, worker k > 0 launches its own through its
 * own proxy), and, before a unit, the worker's browser replaced if it went away under the last one.
 */
export function proxiedBrowsers(browser: BrowserName, resources: ReturnType<typeof realAppsResources>) {
  const launch = async (slot = 0) => {
    const { proxy } = await resources.get(slot);
    return launchBrowser(browser, null, { proxy: { server: proxy.url, ca: proxy.ca } });
  };
  const setup = async (launched: NonNullable<RealAppStage['browser']>, slot: number): Promise<RealAppsWorker> => {
    if (slot === 0) return { launched, own: null, slot };
    const own = (await launch(slot)).browser;
    return { launched: own, own, slot };
  };
  const connected = async (worker: RealAppsWorker): Promise<void> => {
    if (worker.launched.isConnected()) return;
    await worker.own?.close().catch(() => undefined);
    worker.own = worker.launched = (await launch(worker.slot)).browser;
  };
  return { launch: () => launch(0), setup, connected };
}

/** One unit's row: the condition's application and the run's proxy, the reference policy as an agent, the trace. */
export async function realAppRow(u: RealAppsUnit, browser: RealAppsWorker['launched'], resources: ReturnType<typeof realAppsResources>, phases?: UnitPhases, slot = 0): Promise<RowBody<LayersRow>> {
  const { apps, proxy } = await resources.get(slot);
  const app = apps[u.task.app];
  const policy = realAppPolicies.find((p) => p.name === u.policy)!;
  const agent = realAppPolicyAgent(policy, u.task, app.origin);
  const { result: _result, ...outcome } = await runRealAppTrace({ stage: { browser, proxy, app }, task: u.task, agent, phases });
  return { condition_id: u.task.condition_id, policy: u.policy, ...outcome };
}

export function realAppsPlan(options: { browser: BrowserName; resources: ReturnType<typeof realAppsResources>; units?: RealAppsUnit[]; arm?: 'real-apps' | 'transport'; runPrefix?: string }): RunPlan<RealAppsUnit, LayersRow, RealAppsWorker> {
  const { browser, resources } = options;
  const { launch, setup, connected } = proxiedBrowsers(browser, resources);
  return {
    study: 'layers',
    arm: options.arm ?? 'real-apps',
    browser,
    ...(options.runPrefix ? { runPrefix: options.runPrefix } : {}),
    units: options.units ?? realAppsUnits(),
    conditionOf: (u) => u.task.condition_id,
    unitKey: (u) => realAppsUnitKey({ condition_id: u.task.condition_id, policy: u.policy }),
    rowKey: realAppsUnitKey,
    browserBatch: BROWSER_BATCH,
    retries: INFRASTRUCTURE_RETRIES,
    launch,
    // a browser that went away under a unit (a crash, a signal) is replaced before the unit is tried again
    worker: { setup: (launched, index) => setup(launched.browser, index), teardown: async (w) => { await w.own?.close().catch(() => undefined); } },
    runUnit: async (u, ctx) => {
      await connected(ctx.worker);
      return realAppRow(u, ctx.worker.launched, resources, ctx.phases, ctx.worker.slot);
    },
  };
}

/**
 * Workers a smoke run and the bench take by default on the 2-core machine (docs/speed.md, issue 49:
 * 36 units under load ~12-16, 1 → 2 → 3 workers: 271 → 185 → 148 s). A registered run takes 1.
 */
export const REAL_APPS_WORKERS = 2;

/** how far apart the workers' copies' ports are: worker k serves an app on its port + k × this */
export const workerPortStep = (): number => {
  const step = Number(process.env.REAL_APPS_WORKER_PORT_STEP || 100);
  if (!Number.isInteger(step) || step < 1) throw new UsageError(`REAL_APPS_WORKER_PORT_STEP=${process.env.REAL_APPS_WORKER_PORT_STEP}: a whole number of ports`);
  return step;
};

export interface RealAppsSlot { apps: Record<AppName, RealApp>; proxy: FaultProxy }

/**
 * What the arm needs from outside the browser, per worker, made on first use (a complete run,
 * resumed, needs none of it): worker 0, both applications up (started here unless they run
 * already) and a fault proxy; worker k > 0, a copy of each (the same seeded snapshot, its own
 * database and apache2: fixtures/lamp/snapshot.ts copyDatabase) and a proxy of its own, with the
 * same layer table. close() stops what was started here.
 */
export function realAppsResources(layerTable: LayerTableName = layerTableOf(1)): { get(slot?: number): Promise<RealAppsSlot>; close(): Promise<void>; pids(): number[] } {
  let made: Promise<RealAppsSlot & { sites: SitesUp; stores: HeldLock[] }> | undefined;
  const copies = new Map<number, Promise<RealAppsSlot & { stop(): Promise<void> }>>();
  // the apps' apache2s and mariadbds made so far (the bench reads their CPU)
  const services: Service[] = [];
  const primary = () => (made ??= (async () => {
    const sites = await startSites(['layers-wordpress', 'mediawiki']);
    const stores: HeldLock[] = [];
    try {
      const apps = { wordpress: layersWordpressApp(), mediawiki: mediawikiApp() };
      // one run resets and reads each application's database (and its workers' copies) at a time
      for (const site of [apps.wordpress.site, (apps.mediawiki as ReturnType<typeof mediawikiApp>).site]) {
        stores.push(await lockStore(site.state, site.name, (message) => log({ kind: 'warn', message })));
      }
      services.push(apps.wordpress.site.apache, apps.wordpress.site.mariadb, apps.mediawiki.site.apache, apps.mediawiki.site.mariadb);
      return { apps, proxy: await startFaultProxy({ layerTable, har: true }), sites, stores };
    } catch (error) {
      for (const l of stores) l.release();
      await sites.stop();
      throw error;
    }
  })());
  const copy = async (slot: number): Promise<RealAppsSlot & { stop(): Promise<void> }> => {
    const { apps } = await primary();
    const step = workerPortStep() * slot;
    const wordpress = apps.wordpress as LayersWordpress;
    const wiki = (apps.mediawiki as ReturnType<typeof mediawikiApp>).site;
    const stops: (() => Promise<void>)[] = [];
    const stop = async () => { for (const s of stops.splice(0).reverse()) await s().catch((error: Error) => log({ kind: 'error', message: error.message })); };
    try {
      const wp = await startLayersCopy(wordpress.site, slot, wordpress.site.port + step);
      stops.push(wp.stop);
      const mw = await startWikiCopy(wiki, slot, wiki.port + step);
      stops.push(mw.stop);
      const proxy = await startFaultProxy({ layerTable, har: true });
      stops.push(() => proxy.close());
      services.push(wp.site.apache, mw.site.apache);
      return { apps: { wordpress: layersWordpressApp(wp.site), mediawiki: mediawikiApp(mw.site) }, proxy, stop };
    } catch (error) {
      await stop();
      throw error;
    }
  };
  return {
    get: (slot = 0) => {
      if (slot === 0) return primary();
      let c = copies.get(slot);
      if (!c) copies.set(slot, (c = copy(slot)));
      return c;
    },
    pids: () => services.map((s) => runningPid(s)).filter((p): p is number => p !== null),
    async close() {
      for (const c of copies.values()) await (await c.catch(() => undefined))?.stop();
      copies.clear();
      if (!made) return;
      const m = await made.catch(() => undefined);
      await m?.proxy.close();
      for (const l of m?.stores ?? []) l.release();
      await m?.sites.stop();
    },
  };
}

/**
 * The most workers a registered run of an arm version may take in a browser: what a frozen prereg or
 * amendment of that arm and version adopts in its front matter (`workers: { chromium: 2 }`), else 1.
 * The registered version-1 rows ran one condition at a time.
 */
export function adoptedWorkers(arm: 'real-apps' | 'transport', version: number, browser: BrowserName): { workers: number; by: string | null } {
  let best = { workers: 1, by: null as string | null };
  for (const p of readPreregs()) {
    if (p.study !== 'layers' || p.arm !== arm || Math.floor(Number(p.version)) !== version) continue;
    const n = Number(p.workers?.[browser] ?? 1);
    if (n > best.workers) best = { workers: n, by: p.id };
  }
  return best;
}

/**
 * --browsers 1 always (each worker k > 0 has its own browser); --workers > 1 only for a run that
 * writes nothing into the record (--smoke, or RSTACK_SCRATCH), or as many as a frozen amendment adopted.
 */
export function refuseUnadoptedWorkers(arm: 'real-apps' | 'transport', flags: { smoke: boolean; workers: number; browsers?: number }, command: string, run: { version: number; browser: BrowserName } = { version: 1, browser: 'chromium' }): void {
  if ((flags.browsers ?? 1) !== 1) throw new UsageError(messages.realAppsOneBrowser(command));
  if (flags.workers <= 1 || flags.smoke || outputRoot() !== root()) return;
  const adopted = adoptedWorkers(arm, run.version, run.browser);
  if (flags.workers > adopted.workers) throw new UsageError(messages.realAppsWorkersNotAdopted(`layers ${arm} version ${run.version} in ${run.browser}`, adopted));
}

export const summaryTables: SummaryTable[] = [
  { name: 'layers_real_apps', hide: ['browser', 'mean_actions'], where: (r) => r.family === 'all' },
];

/** A run's end screen per arm version: version 2's rows are counted by its own table (version 1's counts rows without a version). */
export const summaryTablesFor = (version: number): SummaryTable[] =>
  version >= 2 ? [{ name: 'layers_real_apps_v2', hide: ['browser'], where: (r) => r.family === 'all' }] : summaryTables;

export const realAppsOptions = {
  browser: { type: 'string', help: 'chromium (default, or $BROWSER) or firefox' },
  version: { type: 'string', help: 'the arm version: 1 (registered, default) or 2 (the seed\'s Verification, a later save commits; the policies\' claims in the rows; at least 24 conditions per application and layer): registered once its amendment is frozen, --smoke before' },
  ...runOptions('unit'),
} as const;

export const realAppsCommand: Command<typeof realAppsOptions> = {
  name: 'make run-real-apps',
  summary: 'the five fault layers on real applications: every condition of data/tasks/layers-real-apps.jsonl (--version 2: layers-real-apps-v2.jsonl) × the 3 reference policies, on WordPress and MediaWiki behind the fault proxy, scored by their databases; prints AS / VTS / FC per application, policy and layer',
  usage: 'make run-real-apps [BROWSER=firefox] [ARGS="--smoke --only wordpress-general-title"]',
  options: realAppsOptions,
  async run(values) {
    const browser = parseBrowserName(values.browser);
    const flags = runFlags(values);
    // the gate (run.ts) refuses a prereg/ that differs from the ledger head: a prereg found here is frozen
    if (!flags.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === 'real-apps')) throw new UsageError(messages.realAppsArmUnregistered());
    const version = Number(values.version ?? '1');
    if (!(REAL_APPS_VERSIONS as readonly number[]).includes(version)) throw new UsageError(`--version ${values.version}: one of ${REAL_APPS_VERSIONS.join(', ')}`);
    refuseUnadoptedWorkers('real-apps', flags, 'run-real-apps', { version, browser });
    if (!flags.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === 'real-apps' && Math.floor(Number(p.version)) >= version)) {
      throw new UsageError(`no frozen prereg or amendment registers version ${version} of the real-applications arm: write it (prereg/layers-real-apps-amendment-N.md, version: ${version}), make freeze, then run; until then only ARGS="--version ${version} --smoke" (rows to data/excluded/)`);
    }
    const units = realAppsUnits(realAppsVersionTasks(version, flags.smoke));
    const resources = realAppsResources(layerTableOf(version));
    let result;
    try {
      result = await runArm(flags, () => realAppsPlan({ browser, resources, units, ...(version >= 2 ? { runPrefix: `layers-real-apps-v${version}-${browser}` } : {}) }));
    } finally {
      await resources.close();
    }
    process.stdout.write(`layers/real-apps ${browser}: ${result.rows.length} rows in ${rel(result.file)}\n\n${runSummary(result.rows, summaryTablesFor(version))}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
    return 0;
  },
};
