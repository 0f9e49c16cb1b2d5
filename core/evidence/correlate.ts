// Action-to-request correlation: which network request did this action cause?
//
// The rule (prereg/evidence-controlled.md, "Correlation"):
//   1. only requests initiated inside the action window count: 0 <= t(request) <= horizon;
//   2. a request is followed through its redirect chain (one request_id per chain; each hop's URL
//      and method come from the `request` event and the `redirect` events);
//   3. a chain is a candidate when ANY of its hops is sent with the contract's method to the
//      contract's path, so a target reached through redirects is still the target;
//   4. exactly one candidate: correlated. None: uncorrelated. More than one: ambiguous, and
//      ambiguity fails closed (no policy may accept on network evidence it cannot attribute).
// Background requests to other paths, or initiated before the action, are never candidates.
import { byTime, pathOf, type EvidenceEvent, type TargetContract, type Timeline } from './events.ts';

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

/** Every request chain in the timeline, keyed by request_id, in order of their first event. */
export function chainsOf(timeline: Timeline, horizon = horizonOf(timeline)): Chain[] {
  const chains = new Map<string, Chain>();
  const lastResponse = new Map<Chain, EvidenceEvent>();
  for (const e of byTime(timeline)) {
    if (e.source !== 'network' || e.request_id === undefined) continue;
    let chain = chains.get(e.request_id);
    if (e.type === 'request') {
      if (chain) continue; // a repeated announcement of the same chain adds nothing
      chain = { request_id: e.request_id, request_t_ms: e.t_ms, hops: [hopOf(e, 'GET')], terminal: null, from_cache: null, from_service_worker: null };
      chains.set(e.request_id, chain);
      continue;
    }
    if (!chain) continue; // events of a request announced before recording started
    if (chain.terminal) continue; // the first terminal event closes the chain
    switch (e.type) {
      case 'redirect':
        chain.hops.push(hopOf(e, chain.hops.at(-1)!.method));
        break;
      case 'response':
        lastResponse.set(chain, e);
        if (typeof e.detail?.from_cache === 'boolean') chain.from_cache = e.detail.from_cache;
        if (typeof e.detail?.from_service_worker === 'boolean') chain.from_service_worker = e.detail.from_service_worker;
        break;
      case 'finished':
      case 'failed': {
        if (e.t_ms > horizon) break;
        const response = lastResponse.get(chain);
        chain.terminal = {
          type: e.type,
          t_ms: e.t_ms,
          status: response?.status ?? (e.type === 'finished' ? e.status ?? null : null),
          response_t_ms: response ? response.t_ms : null,
        };
        break;
      }
    }
  }
  return [...chains.values()];
}

function hopOf(e: EvidenceEvent, fallbackMethod: string): Hop {
  const method = typeof e.detail?.method === 'string' ? e.detail.method : fallbackMethod;
  return { url: e.url ?? '', method: method.toUpperCase() };
}

function matches(hop: Hop, target: TargetContract): boolean {
  return hop.method === target.method.toUpperCase() && pathOf(hop.url) === target.path;
}

export function correlate(timeline: Timeline, target: TargetContract): Correlation {
  const horizon = horizonOf(timeline);
  const candidates = chainsOf(timeline, horizon).filter(
    (c) => c.request_t_ms >= 0 && c.request_t_ms <= horizon && c.hops.some((h) => matches(h, target)),
  );
  if (candidates.length === 0) return { kind: 'none' };
  if (candidates.length > 1) return { kind: 'ambiguous', request_ids: candidates.map((c) => c.request_id) };
  const chain = candidates[0]!;
  const hopPaths = new Set(chain.hops.map((h) => pathOf(h.url)));
  const server_seen = timeline.some(
    (e) => e.source === 'server' && e.type === 'received' && e.t_ms >= chain.request_t_ms - 1 && e.t_ms <= horizon && hopPaths.has(pathOf(e.url)),
  );
  return { kind: 'correlated', chain, server_seen };
}

/** A chain whose final hop completed with a 2xx status. */
export function transportSucceeded(chain: Chain): boolean {
  const t = chain.terminal;
  return t !== null && t.type === 'finished' && t.status !== null && t.status >= 200 && t.status < 300;
}
