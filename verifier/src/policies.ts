// The five registered evidence policies. Each is a pure function of the recorded timeline: no page,
// no browser, no fault label. The action's target contract (which request the action is meant to
// cause) is part of the timeline, declared on the dispatch event; tests may pass it explicitly.
// The benchmark's analysis recomputes every verdict from the stored events with these same functions.
//
// A verdict's latency is when the evidence it needed was complete: for an accept, the time of the
// last event it required; for a reject, the time of the first event that made rejection certain
// (a transport failure, the app's reject, a rolled-back rendering), or null when it rejected only
// because the window closed without the evidence.
import { correlate, horizonOf, chainsOf, transportSucceeded, windowOf } from './correlate.ts';
import { byTime, type EvidenceEvent, type TargetContract, type Timeline } from './events.ts';

/** One policy's verdict on one timeline (the trace row's `verdicts` values, schemas/trace.schema.json). */
export interface Verdict {
  accept: boolean;
  /** when the evidence the verdict needed was complete; null: rejected only because the window closed */
  latency_ms: number | null;
}

export type Policy = (timeline: Timeline, target?: TargetContract) => Verdict;

const accept = (t: number): Verdict => ({ accept: true, latency_ms: t });
const reject = (t: number | null = null): Verdict => ({ accept: false, latency_ms: t });

function inWindow(timeline: Timeline): EvidenceEvent[] {
  const horizon = horizonOf(timeline);
  return byTime(timeline).filter((e) => e.t_ms >= 0 && e.t_ms <= horizon);
}

const first = (events: EvidenceEvent[], source: string, types: string[]) => events.find((e) => e.source === source && types.includes(e.type));

/** 1. Optimistic DOM settlement: the page rendered a success state. */
export const optimisticDom: Policy = (timeline) => {
  const events = inWindow(timeline);
  const success = first(events, 'dom', ['optimistic', 'confirmed']);
  if (success) return accept(success.t_ms);
  return reject(first(events, 'dom', ['rolled-back'])?.t_ms ?? null);
};

/** 2. Correlated terminal network completion: the action's own request finished with a 2xx. */
export const networkTerminal: Policy = (timeline, target) => {
  const c = correlate(timeline, target);
  if (c.kind !== 'correlated') return reject(); // none or ambiguous: fail closed
  const terminal = c.chain.terminal;
  if (!terminal) return reject();
  return transportSucceeded(c.chain) ? accept(terminal.t_ms) : reject(terminal.t_ms);
};

/** Both verdicts must accept; rejection is certain at the earliest certain rejection of either. */
function both(a: Verdict, b: Verdict): Verdict {
  if (a.accept && b.accept) return accept(Math.max(a.latency_ms!, b.latency_ms!));
  const certain = [a, b].filter((v) => !v.accept && v.latency_ms !== null).map((v) => v.latency_ms!);
  return reject(certain.length ? Math.min(...certain) : null);
}

/** 3. Correlated transport plus the optimistic DOM state. */
export const transportOptimistic: Policy = (timeline, target) => both(networkTerminal(timeline, target), optimisticDom(timeline, target));

/** The application's committed state (this fixture's semantic contract), as a verdict of its own. */
export const committedState: Policy = (timeline) => {
  const events = inWindow(timeline);
  const commit = first(events, 'app', ['commit']);
  if (commit) return accept(commit.t_ms);
  return reject(first(events, 'app', ['reject'])?.t_ms ?? null);
};

/** 4. Correlated transport plus the committed application state. */
export const transportCommitted: Policy = (timeline, target) => both(networkTerminal(timeline, target), committedState(timeline, target));

/** 5. Negative control: any request finished with a 2xx inside the network window, whoever sent it. */
export const uncorrelatedControl: Policy = (timeline) => {
  const { start, end } = windowOf(timeline);
  const done = chainsOf(timeline, end)
    .filter((c) => transportSucceeded(c) && c.terminal!.t_ms >= start)
    .map((c) => c.terminal!.t_ms);
  return done.length ? accept(Math.min(...done)) : reject();
};

/** The registered policies, in the order the prereg lists them; ids are the verdict keys in trace rows. */
export const policies = {
  'optimistic-dom': optimisticDom,
  'network-terminal': networkTerminal,
  'transport-optimistic': transportOptimistic,
  'transport-committed': transportCommitted,
  'uncorrelated-control': uncorrelatedControl,
} as const satisfies Record<string, Policy>;

export type PolicyId = keyof typeof policies;
export const policyIds = Object.keys(policies) as PolicyId[];

/** The registered policies as functions of the events alone, for the reanalysis' verdict registry. */
export const controlledPolicies: Record<PolicyId, (events: Timeline) => Verdict> = Object.fromEntries(
  policyIds.map((id) => [id, (events: Timeline) => policies[id](events)]),
) as Record<PolicyId, (events: Timeline) => Verdict>;

/** Every registered verdict for one timeline. */
export function verdictsOf(timeline: Timeline, target?: TargetContract): Record<PolicyId, Verdict> {
  return Object.fromEntries(policyIds.map((id) => [id, policies[id](timeline, target)])) as Record<PolicyId, Verdict>;
}
