// The `layers` study's arms on the run skeleton (pipeline/kernel/run.ts): what `make run-layers`,
// `make run-horizon`, `make run-verified` and `make run-claims` run. The study supplies its units —
// (condition, policy, scoring) — how one becomes a row (condition.ts), and the tables its summary
// shows (analysis/tables.ts).
import type { Command } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { UsageError } from '../../core/errors.ts';
import { rel } from '../../core/paths.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersTask } from '../../core/layers.ts';
import { runSummary, type SummaryTable } from '../../analysis/run-summary.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import { parseBrowserName, type BrowserName } from '../browser/launch.ts';
import { runArm, type RunPlan } from '../kernel/run.ts';
import { runFlags, runOptions } from '../kernel/run-flags.ts';
import { readLayersTasks } from './read-tasks.ts';
import { readPreregs } from '../kernel/prereg.ts';
import { layersPolicies, referencePolicies } from './policies/index.ts';
import { runLayersTrace } from './condition.ts';
import { claimingAgent, policyAgent } from './policies/agent.ts';
import { verifiedAgent, verifiedPolicies } from './policies/verified.ts';
import type { Scoring } from './scoring.ts';
import { falseAbandonment, verdictOf } from '../../core/verdict.ts';
import { flagRuleInForce, HORIZONS_MS, MAIN_BOUNDARY_MS, STALL_RETRIES } from './protocol.ts';

/** units per browser process: Firefox's parent grew to 3 GB after about 570 closed contexts here and slowed every trace after it */
export const BROWSER_BATCH = 150;

export interface LayersUnit { task: LayersTask; policy: string; scoring: Scoring }
/**
 * main, horizon, verified (the reference policies wrapped by the verifier, prereg/layers-verified.md)
 * and claims (the main arm's units with every reference policy's claim kept, prereg/layers-claims.md)
 */
export type LayersArm = 'main' | 'horizon' | 'verified' | 'claims';
/** the arms whose registered runs need their own prereg in prereg/ (the others are the seed's) */
const PREREG_ARMS: readonly LayersArm[] = ['verified', 'claims'];

export const unitKey = (row: { condition_id: string; policy: string; horizon_ms: number }) => `${row.condition_id}|${row.policy}|${row.horizon_ms}`;
const horizonOf = (s: Scoring) => (s.kind === 'after-policy' ? s.boundaryMs : s.horizonMs);

export function unitsFor(arm: LayersArm, tasks: LayersTask[] = readLayersTasks()): LayersUnit[] {
  // the claims arm runs the main arm's units: the same conditions, policies and boundary
  if (arm === 'main' || arm === 'claims') {
    return tasks.flatMap((task) => referencePolicies.map((p) => ({ task, policy: p.name, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const })));
  }
  // every condition, each of the two wrapped policies, scored as the main arm is
  if (arm === 'verified') {
    return tasks.flatMap((task) => Object.keys(verifiedPolicies).map((policy) => ({ task, policy, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const })));
  }
  // the horizon ablation: all State and Verification card tasks, one action, then passive waiting
  return tasks
    .filter((t) => t.template === 'cards' && (t.layer === 'state' || t.layer === 'verification'))
    .flatMap((task) => HORIZONS_MS.map((h) => ({ task, policy: 'single-action', scoring: { kind: 'after-action', horizonMs: h } as const })));
}

export function layersPlan(arm: LayersArm, browser: BrowserName, units = unitsFor(arm), flagRule = flagRuleInForce()): RunPlan<LayersUnit, LayersRow, FixtureServer> {
  return {
    study: 'layers',
    arm,
    browser,
    units,
    conditionOf: (u) => u.task.condition_id,
    unitKey: (u) => unitKey({ condition_id: u.task.condition_id, policy: u.policy, horizon_ms: horizonOf(u.scoring) }),
    rowKey: unitKey,
    browserBatch: BROWSER_BATCH,
    // amendment 7: a stall is retried (condition.ts throws it); before it, a row records the error
    ...(flagRule === 'speed' ? { retries: STALL_RETRIES } : {}),
    worker: { setup: () => startFixtureServer(), teardown: (server) => server.close() },
    runUnit: async (u, ctx) => {
      const verified = verifiedPolicies[u.policy];
      const claims = arm === 'claims';
      const agent = verified ? verifiedAgent(verified, u.task) : (claims ? claimingAgent : policyAgent)(layersPolicies[u.policy]!, u.task);
      const { result, ...outcome } = await runLayersTrace({ browser: ctx.browser.browser, server: ctx.worker, task: u.task, agent, scoring: u.scoring, flagRule, phases: ctx.phases });
      // a claims-arm row keeps the policy's claim (null when it threw) and false completion both ways:
      // false_completion by the page, as arm main's, and claim_false_completion by the claim
      // (prereg/layers-claims.md); ended_done is the claim's done
      if (claims) {
        const ended = result.claim?.done === true;
        return {
          condition_id: u.task.condition_id, policy: u.policy, ...outcome,
          claim: result.claim, ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'both' }),
          ended_done: ended, false_abandonment: falseAbandonment(ended, outcome.vts),
        };
      }
      // a verified policy's claim: done exactly when its save closed; its false completion is claimed
      // done and not VTS (prereg/layers-verified.md), as an outside agent's is
      return {
        condition_id: u.task.condition_id, policy: u.policy, ...outcome,
        ...(verified ? { claim: result.claim, ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'claim-if-kept' }) } : {}),
      };
    },
  };
}

/** What the end-of-run screen shows, per arm: the analysis's own tables on the run's rows. */
export const summaryTables: Record<LayersArm, SummaryTable[]> = {
  main: [
    { name: 'layers_overall', hide: ['browser', 'mean_retries'] },
    { name: 'layers_by_layer', hide: ['browser', 'as_rate', 'fc_rate'], where: (r) => r.template === 'all' },
    { name: 'layers_timing', hide: ['browser'] },
  ],
  horizon: [{ name: 'layers_horizon', hide: ['browser'] }],
  // its screen is verifiedSummary below (layers_verified needs the main arm's rows beside it)
  verified: [],
  claims: [{ name: 'layers_claims', hide: ['browser', 'mean_actions', 'mean_latency_ms'] }],
};

/** The verified arm's end screen: per policy and layer, claimed done, AS, VTS and false completion (claimed done, not VTS). */
export function verifiedSummary(rows: readonly LayersRow[]): string {
  const groups = new Map<string, LayersRow[]>();
  for (const r of rows) for (const layer of [r.layer, 'all']) groups.set(`${r.policy}|${layer}`, [...(groups.get(`${r.policy}|${layer}`) ?? []), r]);
  const lines = ['policy                      layer           n  claimed   AS  VTS  FC'];
  for (const [key, rs] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [policy, layer] = key.split('|');
    const claimed = rs.filter((r) => r.claim?.done === true);
    lines.push(`${policy!.padEnd(28)}${layer!.padEnd(14)}${String(rs.length).padStart(3)}  ${String(claimed.length).padStart(7)}  ${String(rs.filter((r) => r.apparent_success).length).padStart(3)}  ${String(rs.filter((r) => r.vts).length).padStart(3)}  ${String(claimed.filter((r) => !r.vts).length).padStart(2)}`);
  }
  return lines.join('\n');
}

export const armOptions = {
  browser: { type: 'string', help: 'chromium (default, or $BROWSER) or firefox' },
  ...runOptions('unit'),
} as const;

type Values = { browser?: string } & Parameters<typeof runFlags>[0];

async function runLayersArm(arm: LayersArm, values: Values): Promise<number> {
  const browser = parseBrowserName(values.browser);
  // the gate (run.ts) refuses a tree whose prereg/*.md differ from the ledger head: a prereg found here is frozen
  if (PREREG_ARMS.includes(arm) && !values.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === arm)) throw new UsageError(messages.armUnregistered(arm));
  const result = await runArm(runFlags(values), () => layersPlan(arm, browser));
  const screen = arm === 'verified' ? verifiedSummary(result.rows) : runSummary(result.rows, summaryTables[arm]);
  process.stdout.write(`layers/${arm} ${browser}: ${result.rows.length} rows in ${rel(result.file)}\n\n${screen}\n`);
  const errors = result.rows.filter((r) => r.error).length;
  if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
  return 0;
}

/** Each arm's run target (pipeline/layers/run-<arm>.ts) as its --help names it. */
const runTargets: Record<LayersArm, { name: string; summary: string; usage: string }> = {
  main: {
    name: 'make run-layers',
    summary: 'run the 864 `layers` traces (288 conditions × 3 reference policies) and print AS / VTS / FC per policy and layer',
    usage: 'make run-layers [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke --only cards-state"]',
  },
  verified: {
    name: 'rstackbench run-verified',
    summary: 'the selector-only and semantic-recovery policies wrapped by the verifier on the 288 `layers` conditions (576 traces; prereg/layers-verified.md): claimed done, AS, VTS, FC per policy and layer',
    usage: 'make run-verified [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke --only cards-state"]',
  },
  claims: {
    name: 'make run-claims',
    summary: 'the main arm\'s 864 `layers` traces with every reference policy\'s claim kept (prereg/layers-claims.md): AS, VTS, false completion by the page and by the claim, false abandonment per policy and layer',
    usage: 'make run-claims [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke --only cards-state"]',
  },
  horizon: {
    name: 'make run-horizon',
    summary: 'run the 240-trace scoring-horizon ablation and print VTS per layer and horizon',
    usage: 'make run-horizon [BROWSER=firefox] [WORKERS=2] [ARGS="--smoke"]',
  },
};

export const layersCommand = (arm: LayersArm): Command<typeof armOptions> => ({ ...runTargets[arm], options: armOptions, run: (values) => runLayersArm(arm, values) });
