// Action-to-request correlation: which network request did this action cause?
//
// The rule (prereg/evidence-controlled.md, "Correlation"):
//   1. only requests initiated inside the action window count: -u <= t(request) <= horizon, where
//      u is the uncertainty of the page-clock mapping (the click is stamped on the page's clock,
//      network events on the browser's; a request sent in the click handler may map a hair
//      before t = 0);
//   2. a request is followed through its redirect chain (one request_id per chain; each hop's URL
//      and method come from the `request` event and the `redirect` events);
//   3. a chain is a candidate when ANY of its hops is sent with the contract's method to the
//      contract's path, so a target reached through redirects is still the target;
//   4. exactly one candidate: correlated. None: uncorrelated. More than one: ambiguous, and
//      ambiguity fails closed (no policy may accept on network evidence it cannot attribute).
// Background requests to other paths, or initiated before the action, are never candidates.
import { byTime, pathOf, targetOf, type EvidenceEvent, type TargetContract, type Timeline } from './events.ts';

export interface Hop { url: string; method: string }

export interface Terminal {
  type: 'finished' | 'failed';
  t_ms: number;
  /** the final hop's HTTP status, when a response started; null after a failure without one */
  status: number | null;
  /** when the final hop's headers arrived (response started), if they did */
  response_t_ms: number | null;
}

export interface Chain {
  request_id: string;
  request_t_ms: number;
  hops: Hop[];
  /** the first terminal event inside the window, if any */
  terminal: Terminal | null;
  /** what the browser said about where the response came from; null = the driver cannot tell */
  from_cache: boolean | null;
  from_service_worker: boolean | null;
}

export type Correlation =
  | { kind: 'correlated'; chain: Chain; server_seen: boolean }
  | { kind: 'none' }
  | { kind: 'ambiguous'; request_ids: string[] };

/** The end of the observation window: the runner's horizon event, or no end when absent. */
export function horizonOf(timeline: Timeline): number {
  const h = timeline.find((e) => e.source === 'runner' && e.type === 'horizon');
  return h ? h.t_ms : Number.POSITIVE_INFINITY;
}

/** The action window for network evidence: from -u (the clock-sync uncertainty) to the horizon. */
export function windowOf(timeline: Timeline): { start: number; end: number } {
  const sync = timeline.find((e) => e.source === 'runner' && e.type === 'clock-sync');
  const u = typeof sync?.detail?.page_uncertainty_ms === 'number' ? Math.max(0, sync.detail.page_uncertainty_ms) : 0;
  return { start: -u, end: horizonOf(timeline) };
}

/**
 * Every request chain in the timeline, keyed by request_id, in order of their first event.
 * Events are grouped per chain first and read in time order, but a chain's response and its
 * terminal event are paired whatever their order: CDP stamps loadingFinished in the network
 * layer and responseReceived later, so for a small body "finished" can carry the earlier time.
 * The terminal time is therefore the later of the two: completion is known once both are.
 */
export function chainsOf(timeline: Timeline, horizon = horizonOf(timeline)): Chain[] {
  const grouped = new Map<string, EvidenceEvent[]>();
  for (const e of byTime(timeline)) {
    if (e.source !== 'network' || e.request_id === undefined) continue;
    if (!grouped.has(e.request_id)) grouped.set(e.request_id, []);
    grouped.get(e.request_id)!.push(e);
  }
  const chains: Chain[] = [];
  for (const [request_id, events] of grouped) {
    const announced = events.find((e) => e.type === 'request');
    if (!announced) continue; // events of a request announced before recording started
    const chain: Chain = { request_id, request_t_ms: announced.t_ms, hops: [hopOf(announced, 'GET')], terminal: null, from_cache: null, from_service_worker: null };
    for (const e of events) if (e.type === 'redirect') chain.hops.push(hopOf(e, chain.hops.at(-1)!.method));
    const end = events.find((e) => (e.type === 'finished' || e.type === 'failed') && e.t_ms <= horizon);
    // the final hop's response: the last one at or before the horizon (redirect hops have none)
    const response = events.filter((e) => e.type === 'response' && e.t_ms <= horizon).at(-1);
    if (response) {
      if (typeof response.detail?.from_cache === 'boolean') chain.from_cache = response.detail.from_cache;
      if (typeof response.detail?.from_service_worker === 'boolean') chain.from_service_worker = response.detail.from_service_worker;
    }
    if (end) {
      const finishedWithoutHeaders = end.type === 'finished' && !response;
      chain.terminal = {
        type: end.type as 'finished' | 'failed',
        t_ms: Math.max(end.t_ms, response?.t_ms ?? end.t_ms),
        status: response?.status ?? (finishedWithoutHeaders ? end.status ?? null : null),
        response_t_ms: response ? response.t_ms : null,
      };
    }
    chains.push(chain);
  }
  return chains;
}

function hopOf(e: EvidenceEvent, fallbackMethod: string): Hop {
  const method = typeof e.detail?.method === 'string' ? e.detail.method : fallbackMethod;
  return { url: e.url ?? '', method: method.toUpperCase() };
}

/** Whether one hop of a chain is the action's target request (a request family, see contract.ts). */
export type HopMatcher = (hop: Hop) => boolean;

/** The target contract as a hop matcher: the same method, and exactly the contract's path. */
export const targetMatcher = (target: TargetContract): HopMatcher => (hop) =>
  hop.method === target.method.toUpperCase() && pathOf(hop.url) === target.path;

/**
 * Rules 1-3: the chains initiated inside the window [start, end] of which any hop matches.
 * Shared by the policies (a target contract) and the verifier (any request family).
 */
export function candidatesOf(timeline: Timeline, matches: HopMatcher, window: { start: number; end: number }): Chain[] {
  return chainsOf(timeline, window.end).filter(
    (c) => c.request_t_ms >= window.start && c.request_t_ms <= window.end && c.hops.some(matches),
  );
}

/** Correlates against the given contract, or the one declared at the dispatch; none declared: uncorrelated. */
export function correlate(timeline: Timeline, target: TargetContract | undefined = targetOf(timeline)): Correlation {
  if (!target) return { kind: 'none' };
  const window = windowOf(timeline);
  const { start, end: horizon } = window;
  const candidates = candidatesOf(timeline, targetMatcher(target), window);
  if (candidates.length === 0) return { kind: 'none' };
  if (candidates.length > 1) return { kind: 'ambiguous', request_ids: candidates.map((c) => c.request_id) };
  const chain = candidates[0]!;
  // the server saw this chain when it logged a hop's method and path inside the window
  const hops = new Set(chain.hops.map((h) => `${h.method} ${pathOf(h.url)}`));
  const server_seen = timeline.some(
    (e) => e.source === 'server' && e.type === 'received' && e.t_ms >= start && e.t_ms <= horizon && hops.has(`${String(e.detail?.method ?? '').toUpperCase()} ${pathOf(e.url)}`),
  );
  return { kind: 'correlated', chain, server_seen };
}

/** A chain whose final hop completed with a 2xx status. */
export function transportSucceeded(chain: Chain): boolean {
  const t = chain.terminal;
  return t !== null && t.type === 'finished' && t.status !== null && t.status >= 200 && t.status < 300;
}
