// The transport arm (issue 37) on the run skeleton (pipeline/kernel/run.ts): what `make run-transport`
// runs. Transport faults and compound conditions (proxy/faults/transport.json, design.ts) on
// the two real applications and the three small apps, each behind the fault proxy, scored by each
// app's own store, with the store's count of writes to the target and false abandonment beside AS,
// VTS and FC. Each kind of app keeps its own trace, unchanged: the real applications'
// (real-apps/condition.ts, its three reference policies), the small apps' main trace on a browser
// through the proxy (small-apps.ts: the three reference policies, the two verified ones and semantic recovery with the verifier's retry pattern).
//
//   data/tasks/layers-transport.jsonl        (real applications) ─┐
//   data/tasks/layers-transport-small.jsonl  (small apps)        ─┴─▶ units (condition × policy)
//   ─▶ one fault proxy, the browser through it; both real applications up when a unit needs them,
//   a fixture server per worker ─▶ per unit: its trace ─▶ data/raw/layers/transport/<run>.jsonl
//
// One condition at a time: each real application has one database, which a condition resets and reads.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from '../../../core/cli.ts';
import { RStackError, UsageError } from '../../../core/errors.ts';
import { log } from '../../../core/log.ts';
import { paths, rel } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRealAppsTask, LayersRow, LayersTask } from '../../../core/contracts.ts';
import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import { runArm, type RunPlan } from '../../kernel/run.ts';
import { runFlags } from '../../kernel/run-flags.ts';
import { parseBrowserName, type BrowserName } from '../../browser/launch.ts';
import { BROWSER_BATCH } from '../arms.ts';
import { layerTableOf, INFRASTRUCTURE_RETRIES, proxiedBrowsers, refuseUnadoptedWorkers, realAppRow, realAppsOptions, realAppsResources, type RealAppsWorker } from '../real-apps/arm.ts';
import { realAppPolicies } from '../real-apps/policies.ts';
import { layersPolicies, referencePolicies } from '../policies/index.ts';
import { claimingAgent, policyAgent } from '../policies/agent.ts';
import { generateTransportTasks, transportSeed, TRANSPORT_VERSIONS } from './generate.ts';
import { transportVerifiedPolicies, verifiedAgent } from '../policies/verified.ts';
import { runSmallTransportTrace } from './small-apps.ts';

/** The frozen real-application conditions of a version of the arm: version 1's file, or layers-transport-v<N>.jsonl. */
export const transportTaskFile = (version = 1) => path.join(paths.tasks(), version >= 2 ? `layers-transport-v${version}.jsonl` : 'layers-transport.jsonl');
/** The small apps' conditions: version 2 keeps version 1's. */
export const smallTransportTaskFile = () => path.join(paths.tasks(), 'layers-transport-small.jsonl');

/** The frozen conditions of the arm, each validated against schemas/layers-real-apps-task.schema.json. */
export function readTransportTasks(file = transportTaskFile(), version = 1): LayersRealAppsTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks-transport${version >= 2 ? ` ARGS="--version ${version}"` : ''}, then make freeze`, { exitCode: 2 });
  const tasks = readJsonl<LayersRealAppsTask>(file, { schema: 'layers-real-apps-task' });
  const other = tasks.find((t) => t.arm !== 'transport');
  if (other) throw new RStackError(`${rel(file)}: ${other.condition_id} is a condition of arm ${other.arm}, not transport`, { exitCode: 2 });
  const otherVersion = tasks.find((t) => (t.version ?? 1) !== version);
  if (otherVersion) throw new RStackError(`${rel(file)}: ${otherVersion.condition_id} is a condition of version ${otherVersion.version ?? 1} of the arm, not ${version}`, { exitCode: 2 });
  return tasks;
}

/**
 * The real-application conditions a run of a version takes: its frozen file; for a smoke run of a
 * version whose conditions are not frozen yet, a fresh generation in memory (rows to data/excluded/).
 */
export function transportVersionTasks(version: number, smoke: boolean): LayersRealAppsTask[] {
  const file = transportTaskFile(version);
  if (fs.existsSync(file) || !smoke) return readTransportTasks(file, version);
  log({ kind: 'info', message: `${rel(file)} is not made yet: its conditions generated in memory for this smoke run (make tasks-transport ARGS="--version ${version}", then make freeze with its amendment, registers them)` });
  return generateTransportTasks(transportSeed(version), undefined, version);
}

/** The frozen small-app conditions of the arm, each validated against schemas/layers-task.schema.json. */
export function readSmallTransportTasks(file = smallTransportTaskFile()): LayersTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks-transport, then make freeze`, { exitCode: 2 });
  const tasks = readJsonl<LayersTask>(file, { schema: 'layers-task' });
  const other = tasks.find((t) => t.arm !== 'transport');
  if (other) throw new RStackError(`${rel(file)}: ${other.condition_id} is not a condition of the transport arm`, { exitCode: 2 });
  return tasks;
}

/** The small apps' policies in the arm: the three reference policies, the two the verifier wraps, and semantic recovery with the verifier's retry pattern. */
export const smallAppPolicies = [...referencePolicies.map((p) => p.name), ...Object.keys(transportVerifiedPolicies)];

/** A unit of the arm: a condition and a policy; a small-app unit carries the arm version (its conditions carry none: version 2 keeps version 1's), a real one's condition says it. */
export type TransportUnit = { kind: 'real'; task: LayersRealAppsTask; policy: string } | { kind: 'small'; task: LayersTask; policy: string; version: number };

export const transportUnitKey = (row: { condition_id: string; policy: string }) => `${row.condition_id}|${row.policy}`;

export function transportUnits(real: LayersRealAppsTask[] = readTransportTasks(), small: LayersTask[] = readSmallTransportTasks(), version = 1): TransportUnit[] {
  return [
    ...small.flatMap((task) => smallAppPolicies.map((policy) => ({ kind: 'small' as const, task, policy, version }))),
    ...real.flatMap((task) => realAppPolicies.map((p) => ({ kind: 'real' as const, task, policy: p.name }))),
  ];
}

interface TransportWorker extends RealAppsWorker { server: FixtureServer }

export function transportPlan(options: { browser: BrowserName; resources: ReturnType<typeof realAppsResources>; units?: TransportUnit[]; runPrefix?: string }): RunPlan<TransportUnit, LayersRow, TransportWorker> {
  const { browser, resources } = options;
  const { launch, setup, connected } = proxiedBrowsers(browser, resources);
  return {
    study: 'layers',
    arm: 'transport',
    browser,
    ...(options.runPrefix ? { runPrefix: options.runPrefix } : {}),
    units: options.units ?? transportUnits(),
    conditionOf: (u) => u.task.condition_id,
    unitKey: (u) => transportUnitKey({ condition_id: u.task.condition_id, policy: u.policy }),
    rowKey: transportUnitKey,
    browserBatch: BROWSER_BATCH,
    retries: INFRASTRUCTURE_RETRIES,
    launch,
    worker: {
      setup: async (launched, index) => ({ server: await startFixtureServer(), ...(await setup(launched.browser, index)) }),
      teardown: async (w) => { w.server.close(); await w.own?.close().catch(() => undefined); },
    },
    runUnit: async (u, ctx) => {
      await connected(ctx.worker);
      if (u.kind === 'real') return realAppRow(u, ctx.worker.launched, resources, ctx.phases, ctx.worker.slot);
      const { proxy } = await resources.get(ctx.worker.slot);
      const verified = transportVerifiedPolicies[u.policy];
      // version 2 keeps every policy's claim (amendment 2); version 1 only the verified policies'
      const reference = layersPolicies[u.policy]!;
      const agent = verified ? verifiedAgent(verified, u.task) : u.version >= 2 ? claimingAgent(reference, u.task) : policyAgent(reference, u.task);
      const { result: _result, proxyLog: _log, ...outcome } = await runSmallTransportTrace({ browser: ctx.worker.launched, proxy, server: ctx.worker.server, task: u.task, agent, phases: ctx.phases, version: u.version });
      return { condition_id: u.task.condition_id, policy: u.policy, ...outcome };
    },
  };
}

/** The end screen: per fault (or pair) and policy, n, AS, VTS, FC, false abandonment and writes the store counted more than once. */
export function transportSummary(rows: readonly LayersRow[]): string {
  // named as analysis/queries/layers_transport.sql names them: a control is the condition without its transport fault
  const what = (r: LayersRow) => r.transport ? `${r.layer === 'baseline' ? '' : `${r.layer}+`}${r.transport.fault} ${r.transport.severity}` : r.also ? `${r.layer}+${r.also.layer}` : `control ${r.layer}`;
  const groups = new Map<string, LayersRow[]>();
  for (const r of rows) groups.set(`${what(r)}|${r.policy}`, [...(groups.get(`${what(r)}|${r.policy}`) ?? []), r]);
  const lines = ['condition                       policy                 n   AS  VTS   FC   FA  twice'];
  for (const [key, rs] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [condition, policy] = key.split('|');
    const count = (f: (r: LayersRow) => boolean) => String(rs.filter(f).length).padStart(4);
    lines.push(`${condition!.padEnd(32)}${policy!.padEnd(20)}${String(rs.length).padStart(4)} ${count((r) => r.apparent_success)} ${count((r) => r.vts)} ${count((r) => r.false_completion)} ${count((r) => r.false_abandonment === true)} ${count((r) => (r.store_writes ?? 0) > 1)}`);
  }
  return lines.join('\n');
}

const transportOptions = {
  ...realAppsOptions,
  version: { type: 'string', help: 'the arm version: 1 (registered, default) or 2 (every policy\'s claim in its row, each trace\'s HAR and store reads kept beside it, the seed\'s Verification in the compound pairs, the real-apps arm\'s version-2 families): registered once its amendment is frozen, --smoke before' },
} as const;

export const transportCommand: Command<typeof transportOptions> = {
  name: 'make run-transport',
  summary: "transport faults and compound conditions behind the fault proxy: every condition of data/tasks/layers-transport-small.jsonl × the 3 reference and 3 verified policies on the small apps, and of data/tasks/layers-transport.jsonl × the 3 reference policies on WordPress and MediaWiki, scored by each app's store; prints AS / VTS / FC, false abandonment and writes the store counted more than once per condition and policy",
  usage: 'make run-transport [BROWSER=firefox] [ARGS="--version 2 --smoke --only wordpress-general-title-transport"]',
  options: transportOptions,
  async run(values) {
    const browser = parseBrowserName(values.browser);
    const flags = runFlags(values);
    const version = Number(values.version ?? 1);
    if (!(TRANSPORT_VERSIONS as readonly number[]).includes(version)) throw new UsageError(`--version ${values.version}: one of ${TRANSPORT_VERSIONS.join(', ')}`);
    refuseUnadoptedWorkers('transport', flags, 'run-transport', { version, browser });
    // the gate (run.ts) refuses a prereg/ that differs from the ledger head: a prereg found here is frozen
    if (!flags.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === 'transport' && Math.floor(Number(p.version)) >= version)) {
      throw new UsageError(version === 1
        ? 'no frozen prereg registers the transport arm (prereg/layers-transport.md): write it, make freeze, then run; until then only ARGS=--smoke (rows to data/excluded/)'
        : `no frozen prereg or amendment registers version ${version} of the transport arm: write it (prereg/layers-transport-amendment-N.md, version: ${version}), make freeze, then run; until then only ARGS="--version ${version} --smoke" (rows to data/excluded/)`);
    }
    // version 1 (prereg/layers-transport.md) ran its compound pairs with layers-v1.json's Verification; version 2 with the seed's
    const resources = realAppsResources(layerTableOf(version));
    const units = transportUnits(transportVersionTasks(version, flags.smoke), readSmallTransportTasks(), version);
    let result;
    try {
      result = await runArm(flags, () => transportPlan({ browser, resources, units, ...(version >= 2 ? { runPrefix: `layers-transport-v${version}-${browser}` } : {}) }));
    } finally {
      await resources.close();
    }
    process.stdout.write(`layers/transport ${browser}: ${result.rows.length} rows in ${rel(result.file)}\n\n${transportSummary(result.rows)}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
    return 0;
  },
};
