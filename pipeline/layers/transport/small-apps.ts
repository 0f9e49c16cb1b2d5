// The transport arm on the three small apps (issue 37): the app's own server makes its layer (or a
// compound's two layers, their faults together, as it makes one), and the fault proxy in front of
// it makes the transport fault. The trace is the main arm's (pipeline/layers/condition.ts), on a
// browser that goes through the proxy; the store counts the writes to the target.
//
//   generateLayersTasks() (the main arm's seeded conditions) ──seed──▶ a base condition per
//   (template, what) ─▶ + transport fault, or + the second layer's fault ─▶ data/tasks/layers-transport-small.jsonl
//   per unit: proxy.load(the app's fault spec, baseline, transport) ─▶ runLayersTrace ─▶ row
//
// The small apps load no script or stylesheet of their own (each page's script is inline): the
// asset fault has nothing to fire at there, so it is left out of their conditions.
import type { Browser } from 'playwright-core';
import type { FixtureServer } from '../../../fixtures/server.ts';
import type { FaultProxy, FaultSpec, ProxyEvent } from '../../../proxy/src/index.ts';
import type { LayersTask, Template } from '../../../core/layers.ts';
import type { LayersRow, StoreReads } from '../../../core/contracts.ts';
import { storeText } from '../../../core/store-text.ts';
import type { Har } from '../../../proxy/src/index.ts';
import type { TraceFile } from '../../kernel/trace-writer.ts';
import { templates } from '../../../core/layers.ts';
import type { Agent } from '../../agents/contract.ts';
import { endedDone, falseAbandonment, verdictOf } from '../../../core/verdict.ts';
import type { UnitPhases } from '../../kernel/run.ts';
import { rng } from '../../kernel/random.ts';
import { faultsFor, generateLayersTasks } from '../generate.ts';
import { MAIN_BOUNDARY_MS } from '../protocol.ts';
import { runLayersTrace, type LayersOutcome, type SmallStoreReads } from '../condition.ts';
import { compoundPairs, transportFaults, transportSeverities } from './design.ts';

export const SMALL_TRANSPORT_SEED = 'rstackbench-layers-transport-small-v1';

/** The faults the small apps can be given: every transport fault but the asset one (no asset to fire at). */
export const smallAppTransportFaults = transportFaults.filter((f) => f !== 'asset-error');

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What each app's save sends, and which field names the entity. */
const saves: Record<Template, { path: string; keyField: string; target: { selector: string; role: string; name: string } }> = {
  cards: { path: '/api/save', keyField: 'project', target: { selector: 'section.card button', role: 'button', name: 'Save change' } },
  profile: { path: '/api/profile', keyField: 'account', target: { selector: 'form.profile button[type=submit]', role: 'button', name: 'Save profile' } },
  modal: { path: '/api/delete', keyField: 'record', target: { selector: 'dialog button.confirm', role: 'button', name: 'Confirm delete' } },
};

/** The fault spec of a small app's condition: its page, the save of the target (by its key), its commit control. */
export function smallAppSpec(task: Pick<LayersTask, 'template' | 'target'>): FaultSpec {
  const save = saves[task.template];
  return {
    schema: 'fault-spec/1',
    family: `layers-${task.template}`,
    target: save.target,
    pages: '^/(\\?.*)?$',
    write: { method: 'POST', path: `^${escapeRegex(save.path)}$`, json: { [save.keyField]: `^${escapeRegex(task.target.key)}$` } },
    success: { kind: 'reply', status: 200, body: '{"ok":true}', headers: { 'content-type': 'application/json' } },
  } as FaultSpec;
}

/** A condition of the arm: the base condition renamed, with what it adds. */
function derive(base: LayersTask, id: string, add: Partial<Pick<LayersTask, 'transport' | 'also' | 'faults' | 'control'>>): LayersTask {
  return { ...structuredClone(base), condition_id: `${base.template}-${id}`, arm: 'transport', ...structuredClone(add) };
}

/**
 * The small apps' conditions, per app: each transport fault but the asset one × severity 1-3 on one
 * baseline condition drawn for the app, and that condition as their control (12 + 1); each designed
 * compound pair on a condition of its first layer at severity 1 (the second layer's fault added, or
 * the transport fault on top), and for a pair with a transport fault that condition alone as its
 * control (5 + 3). 21 per app; a faulted condition names its control.
 */
export function generateSmallTransportTasks(seed = SMALL_TRANSPORT_SEED, base = generateLayersTasks()): LayersTask[] {
  const out: LayersTask[] = [];
  for (const template of templates) {
    const of = (layer: LayersTask['layer'], severity: number) => base.filter((t) => t.template === template && t.layer === layer && t.severity === severity);
    const pick = (layer: LayersTask['layer'], severity: number, key: string) => rng(seed, template, key).pick(of(layer, severity));
    const b = pick('baseline', 0, 'transport');
    const control = `${template}-transport-control`;
    for (const fault of smallAppTransportFaults) {
      for (const severity of transportSeverities) out.push(derive(b, `transport-${fault}-${severity}`, { transport: { fault, severity }, control }));
    }
    out.push(derive(b, 'transport-control', {}));
    for (const pair of compoundPairs) {
      if (pair.transport?.fault === 'asset-error') continue;
      const p = pick(pair.layer, pair.severity, `compound ${pair.id}`);
      const id = `compound-${pair.id.replace('+', '-')}`;
      const also = pair.also;
      // the second layer's fault beside the first's, as the app's server makes each alone
      const faults = also ? mergeFaults(p.faults, faultsFor(also.layer, also.severity)) : p.faults;
      out.push(derive(p, id, { faults, ...(also ? { also } : {}), ...(pair.transport ? { transport: pair.transport, control: `${template}-${id}-control` } : {}) }));
      if (pair.transport) out.push(derive(p, `${id}-control`, {}));
    }
  }
  return out;
}

/** Two layers' faults as one: each field the faulted value of whichever layer sets it. */
function mergeFaults(a: LayersTask['faults'], b: LayersTask['faults']): LayersTask['faults'] {
  return {
    reveal_after_ms: Math.max(a.reveal_after_ms, b.reveal_after_ms),
    decoys: Math.max(a.decoys, b.decoys),
    swallow_clicks: Math.max(a.swallow_clicks, b.swallow_clicks),
    commit_delay_ms: Math.max(a.commit_delay_ms, b.commit_delay_ms),
    saves_required: Math.max(a.saves_required, b.saves_required),
  };
}

/**
 * One small-app trace of the arm: the proxy on the condition's transport fault (or none), then the
 * main arm's trace on a browser that goes through it, scored at the main boundary by amendment 5's
 * rule; the row adds the transport fault, the second layer, the store's count of writes to the
 * target at the boundary and false abandonment. The proxy is reset after, whatever happened.
 */
export async function runSmallTransportTrace(options: {
  browser: Browser; proxy: FaultProxy; server: FixtureServer; task: LayersTask; agent: Agent; phases?: UnitPhases;
  /** the arm version: 2 keeps every claim (its false completions named apart) and the trace's files (trace.har, store.json) */
  version?: number;
}): Promise<LayersOutcome & Pick<LayersRow, 'transport' | 'also' | 'control' | 'store_writes' | 'ended_done' | 'false_abandonment' | 'claim' | 'arm_version' | 'claim_false_completion'> & { result: Awaited<ReturnType<Agent['run']>>; proxyLog: ProxyEvent[]; files?: TraceFile[] }> {
  const { proxy, task } = options;
  const version = options.version ?? 1;
  let reads: SmallStoreReads | undefined;
  let har: Har | null = null;
  proxy.load({ spec: smallAppSpec(task), layer: 'baseline', severity: 0, seed: `${task.seed}:${task.condition_id}`, ...(task.transport ? { transport: { fault: task.transport.fault, severity: task.transport.severity as 1 | 2 | 3 } } : {}) });
  let traced: Awaited<ReturnType<typeof runLayersTrace>>;
  let proxyLog: ProxyEvent[];
  try {
    traced = await runLayersTrace({
      browser: options.browser, server: options.server, task, agent: options.agent,
      scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS }, flagRule: 'amendment-5', phases: options.phases, countWrites: true,
      ...(version >= 2 ? { storeReads: (r: SmallStoreReads) => { reads = r; } } : {}),
    });
    if (version >= 2) har = await proxy.takeHar();
  } finally {
    proxyLog = await proxy.reset();
  }
  const { result, ...outcome } = traced;
  const claimedDone = endedDone(result.claim, outcome.apparent_success, result.moments?.confirmedAt);
  return {
    ...outcome,
    // version 2: every policy's claim, both false completions (the page's, the claim's); version 1:
    // a verified policy's claim and its false completion by it (claimed done, not VTS), as in the verified arm
    ...(version >= 2
      ? { arm_version: version, claim: result.claim, ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'both' }) }
      : result.claim ? { claim: result.claim, ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'claim-if-kept' }) } : {}),
    ...(task.transport ? { transport: { ...task.transport } } : {}),
    ...(task.also ? { also: { ...task.also } } : {}),
    ...(task.control ? { control: task.control } : {}),
    ended_done: claimedDone,
    false_abandonment: falseAbandonment(claimedDone, outcome.vts),
    result,
    proxyLog,
    ...(version >= 2 && reads ? { files: smallTraceFiles(task, reads, har) } : {}),
  };
}

/** A small-app trace's files (issue 51): the proxy's HAR, its entries on the row's clock, and the store's record of the target. */
function smallTraceFiles(task: LayersTask, reads: SmallStoreReads, har: Har | null): TraceFile[] {
  for (const entry of har?.log.entries ?? []) entry._t = Math.round((entry._t - reads.t0) * 1000) / 1000;
  const store: StoreReads = {
    postcondition: task.target.key,
    target: storeText(task.target.value)!,
    before: storeText(reads.before),
    boundary: { at_ms: reads.boundary.at_ms, value: storeText(reads.boundary.value) },
    later: [], // the small apps' store is read from its own record at the boundary; no read is made after it
    notice: { shown_at_ms: reads.shownAtMs },
    changes: { ...reads.changes },
  };
  return [
    ...(har ? [{ name: 'trace.har', content: `${JSON.stringify(har)}\n` }] : []),
    { name: 'store.json', content: `${JSON.stringify(store)}\n` },
  ];
}
