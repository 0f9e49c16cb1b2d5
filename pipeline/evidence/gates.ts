// The hard instrumentation gates (prereg/evidence-controlled.md, "Gates"): checks that the
// recorded events show each scenario's mechanism, whatever the policies decided. A smoke run must
// pass every gate before the registered run; the registered run reports them too. They read only
// recorded events — the target contract too, declared on the dispatch event (the one way it travels
// from the task to every reader) — never the verdicts or the truth.
import { chainsOf, correlate, windowOf } from '../../verifier/src/correlate.ts';
import { pathOf, targetOf, type EvidenceEvent } from '../../verifier/src/events.ts';

export interface GateInput { condition_id: string; scenario: string; events: EvidenceEvent[] }

export interface GateResult { id: string; description: string; checked: number; failed: string[] }

type Check = { id: string; description: string; applies: (row: GateInput) => boolean; holds: (row: GateInput) => boolean };

/**
 * The smallest gap between response started and completed a streamed row must show: one chunk
 * interval (the body takes three). Not more, because Chromium stamps responseReceived when it
 * processes it, which a loaded machine delays (the first smoke run saw 85 ms for 180 ms of body).
 */
export const streamGapMs = 60;

/** The largest page-clock uncertainty a row may have. */
export const maxClockUncertaintyMs = 5;

const correlated = (row: GateInput) => {
  const c = correlate(row.events);
  return c.kind === 'correlated' ? c : null;
};
const find = (row: GateInput, source: string, type: string) => row.events.find((e) => e.source === source && e.type === type);
const inWindow = (row: GateInput, e: EvidenceEvent | undefined) => e !== undefined && e.t_ms >= 0 && e.t_ms <= windowOf(row.events).end;
const every = () => true;

/** How far before the browser's send a server receipt still counts as this request's (a clock error). */
const lookbackMs = 20;

/** The server's receipts of the correlated chain's hops (same method and path) near and after its send. */
function serverReceipts(row: GateInput): EvidenceEvent[] {
  const c = correlated(row);
  if (!c) return [];
  const hops = new Set(c.chain.hops.map((h) => `${h.method} ${pathOf(h.url)}`));
  return row.events.filter(
    (e) => e.source === 'server' && e.type === 'received' && hops.has(`${String(e.detail?.method ?? '').toUpperCase()} ${pathOf(e.url)}`) &&
      e.t_ms >= c.chain.request_t_ms - lookbackMs && e.t_ms <= windowOf(row.events).end,
  );
}
const only = (scenario: string) => (row: GateInput) => row.scenario === scenario;

export const checks: Check[] = [
  {
    id: 'clock',
    description: `a dispatch at t = 0, a horizon, and the page clock mapped within ${maxClockUncertaintyMs} ms`,
    applies: every,
    holds: (row) => {
      const sync = find(row, 'runner', 'clock-sync');
      const u = sync?.detail?.page_uncertainty_ms;
      return find(row, 'runner', 'dispatch')?.t_ms === 0 && find(row, 'runner', 'horizon') !== undefined && typeof u === 'number' && u <= maxClockUncertaintyMs;
    },
  },
  {
    id: 'target-correlated',
    description: 'exactly one chain correlated to the action, with a terminal event inside the window',
    applies: every,
    holds: (row) => correlated(row)?.chain.terminal != null,
  },
  {
    id: 'optimistic-first',
    description: 'the optimistic rendering came before the target request reached its terminal event',
    applies: every,
    holds: (row) => {
      const optimistic = find(row, 'dom', 'optimistic');
      const terminal = correlated(row)?.chain.terminal;
      return optimistic !== undefined && terminal != null && optimistic.t_ms < terminal.t_ms;
    },
  },
  {
    id: 'final-state-in-window',
    description: 'the app committed or rejected inside the window (the horizon was long enough)',
    applies: every,
    holds: (row) => inWindow(row, row.events.find((e) => e.source === 'app' && (e.type === 'commit' || e.type === 'reject'))),
  },
  {
    id: 'server-clock',
    description: 'the server received the target after the browser sent it and before it completed (±2 ms + clock uncertainty)',
    applies: (row) => serverReceipts(row).length > 0,
    holds: (row) => {
      const c = correlated(row)!;
      const tolerance = 2 + -windowOf(row.events).start;
      return c.chain.terminal !== null && serverReceipts(row).every((e) => e.t_ms >= c.chain.request_t_ms - tolerance && e.t_ms <= c.chain.terminal!.t_ms + tolerance);
    },
  },
  {
    id: 'redirect-followed',
    description: 'redirect rows: the correlated chain starts off the target path and reaches it through two or more redirects',
    applies: only('redirect'),
    holds: (row) => {
      const hops = correlated(row)?.chain.hops ?? [];
      const path = targetOf(row.events)?.path;
      return hops.length >= 3 && pathOf(hops[0]!.url) !== path && pathOf(hops.at(-1)!.url) === path;
    },
  },
  {
    id: 'abort-is-failure',
    description: 'aborted rows: the response started, then the target ended in a loading failure',
    applies: only('aborted'),
    holds: (row) => {
      const t = correlated(row)?.chain.terminal;
      return t?.type === 'failed' && t.response_t_ms !== null;
    },
  },
  {
    id: 'stream-started-before-completed',
    description: `streamed rows: the body completed at least ${streamGapMs} ms (one chunk interval) after the response started`,
    applies: only('streamed'),
    holds: (row) => {
      const t = correlated(row)?.chain.terminal;
      return t?.type === 'finished' && t.response_t_ms !== null && t.t_ms - t.response_t_ms >= streamGapMs;
    },
  },
  {
    id: 'served-from-cache',
    description: 'cached rows: the browser reports the cache, or (where it cannot) the server never saw the request',
    applies: only('cached'),
    holds: (row) => {
      const c = correlated(row);
      return c !== null && (c.chain.from_cache === true || (c.chain.from_cache === null && !c.server_seen));
    },
  },
  {
    id: 'served-by-service-worker',
    description: 'service-worker rows: the browser reports the worker, or (where it cannot) the page was controlled by it',
    applies: only('service-worker'),
    holds: (row) => {
      const c = correlated(row);
      const ready = find(row, 'app', 'ready');
      return c !== null && (c.chain.from_service_worker === true || (c.chain.from_service_worker === null && ready?.detail?.controlled_by_service_worker === true));
    },
  },
  {
    id: 'background-not-correlated',
    description: 'background rows: unrelated requests completed in the window, before the target, and none was correlated',
    applies: only('background'),
    holds: (row) => {
      const c = correlated(row);
      if (!c || !c.chain.terminal) return false;
      const others = chainsOf(row.events).filter((x) => x.request_id !== c.chain.request_id && x.terminal?.type === 'finished' && x.terminal.t_ms >= 0);
      return others.some((x) => x.terminal!.t_ms < c.chain.terminal!.t_ms);
    },
  },
];

export function runGates(rows: GateInput[]): GateResult[] {
  return checks.map((check) => {
    const applicable = rows.filter(check.applies);
    return { id: check.id, description: check.description, checked: applicable.length, failed: applicable.filter((r) => !check.holds(r)).map((r) => r.condition_id) };
  });
}
