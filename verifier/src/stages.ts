// What each stage of the record can establish from a timeline, as pure functions: the live verifier
// (verify.ts) asks them again as events arrive, the replay (replay.ts) once over a recorded trace.
import { candidatesOf, type Chain } from './correlate.ts';
import { byTime, type EvidenceEvent, type Timeline } from './events.ts';
import { describeFamily, hopMatcher, inSet, transportOf, type ContractTerms, type EventPattern, type RequestFamily } from './contract.ts';

export interface Window { start: number; end: number }

/** The first rendering the page reported inside the window, if any (it never decides anything). */
export function firstRendering(timeline: Timeline, window: Window): EvidenceEvent | undefined {
  return byTime(timeline).find((e) => e.source === 'dom' && e.t_ms >= Math.max(0, window.start) && e.t_ms <= window.end);
}

export type CorrelationStage =
  | { kind: 'none-expected' }
  | { kind: 'correlated'; chain: Chain }
  | { kind: 'uncorrelated'; unrelated: string[] }
  | { kind: 'ambiguous'; request_ids: string[] };

/** Which request of the declared family the action caused: exactly one, none yet, or more than one. */
export function correlationStage(timeline: Timeline, family: RequestFamily | 'none', window: Window): CorrelationStage {
  if (family === 'none') return { kind: 'none-expected' };
  const candidates = candidatesOf(timeline, hopMatcher(family), window);
  if (candidates.length === 1) return { kind: 'correlated', chain: candidates[0]! };
  if (candidates.length > 1) return { kind: 'ambiguous', request_ids: candidates.map((c) => c.request_id) };
  // what else was sent in the window: the "what it last saw" of a failed correlation
  const unrelated = candidatesOf(timeline, () => true, window).map((c) => `${c.hops[0]!.method} ${c.hops.at(-1)!.url}`);
  return { kind: 'uncorrelated', unrelated };
}

export type TransportStage =
  | { kind: 'pending' }
  | { kind: 'success' | 'failure' | 'ambiguous'; t_ms: number; status: number | null; terminal: 'finished' | 'failed'; reason: string };

/** The correlated chain's terminal event, classified by the contract's transport semantics. */
export function transportStage(chain: Chain, terms: ContractTerms): TransportStage {
  const t = chain.terminal;
  if (!t) return { kind: 'pending' };
  const rules = transportOf(terms);
  const base = { t_ms: t.t_ms, status: t.status, terminal: t.type };
  if (t.type === 'failed') {
    return { ...base, kind: rules.networkError, reason: `the request ${describeFamily(terms.request)} failed before its body completed${t.status !== null ? ` (status ${t.status})` : ''}` };
  }
  if (t.status === null) return { ...base, kind: 'ambiguous', reason: 'the request completed without a status' };
  if (inSet(t.status, rules.success)) return { ...base, kind: 'success', reason: `completed with ${t.status}` };
  if (inSet(t.status, rules.failure)) return { ...base, kind: 'failure', reason: `the request completed with status ${t.status}, a failure under the contract` };
  return { ...base, kind: 'ambiguous', reason: `the request completed with status ${t.status}, neither success nor failure under the contract` };
}

export type PredicateStage =
  | { kind: 'pending' }
  | { kind: 'holds' | 'negative'; t_ms: number; detail: Record<string, unknown> };

const matchesPattern = (e: EvidenceEvent, p: EventPattern) => e.source === p.source && e.type === p.type;

/** An event predicate over the timeline: the first success or negative event inside [0, end]. */
export function eventStage(timeline: Timeline, success: EventPattern, negative: readonly EventPattern[], window: Window): PredicateStage {
  for (const e of byTime(timeline)) {
    if (e.t_ms < 0 || e.t_ms > window.end) continue;
    if (negative.some((p) => matchesPattern(e, p))) return { kind: 'negative', t_ms: e.t_ms, detail: { event: `${e.source} ${e.type}`, event_t_ms: e.t_ms } };
    if (matchesPattern(e, success)) return { kind: 'holds', t_ms: e.t_ms, detail: { event: `${e.source} ${e.type}`, event_t_ms: e.t_ms } };
  }
  return { kind: 'pending' };
}

/** What a chain looked like, for the record. */
export const chainDetail = (c: Chain) => ({
  request_id: c.request_id,
  request_t_ms: c.request_t_ms,
  hops: c.hops.map((h) => `${h.method} ${h.url}`),
  from_cache: c.from_cache,
  from_service_worker: c.from_service_worker,
});
