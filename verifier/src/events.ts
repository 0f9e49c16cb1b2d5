// The one event vocabulary of the evidence study. Both browser drivers (CDP in Chromium,
// Playwright's engine-neutral events over WebDriver BiDi in Firefox), the page's DOM observer,
// the fixture server's log and the runner all speak it; schemas/trace.schema.json ($defs.event)
// is its serialised form. t_ms is on one clock: ms relative to the action's dispatch.
//
//   source   type            meaning
//   runner   dispatch        the action's click, as the page saw it (t = 0 by definition);
//                            detail.target: the action's target contract, declared before it ran
//   runner   clock-sync      how the page and browser clocks were mapped (detail)
//   runner   horizon         the end of the observation window
//   dom      optimistic      the page rendered its success state before the outcome was known
//   dom      confirmed       the page's final success rendering
//   dom      rolled-back     the page's final failure rendering
//   app      commit          the application committed its state (semantic success)
//   app      reject          the application refused the outcome (semantic or transport failure)
//   network  request         a request left the page (request_id names its redirect chain)
//   network  redirect        a hop of that chain was redirected (status: the 3xx; url: the next hop)
//   network  response        response headers arrived (response STARTED)
//   network  finished        the response body completed (response COMPLETED)
//   network  failed          the request failed or was aborted (detail.error)
//   server   received        the fixture server received a request (url: its path)
//   server   responded       the fixture server finished its response
//   server   aborted         the fixture server cut its response off

/**
 * One event of a timeline. Its serialised form is the benchmark's schemas/trace.schema.json
 * ($defs.event); the verifier restates the shape so that it depends on nothing of the benchmark.
 */
export interface EvidenceEvent {
  /** ms relative to the action's dispatch, on one monotonic clock */
  t_ms: number;
  source: 'dom' | 'network' | 'app' | 'server' | 'runner';
  type: string;
  request_id?: string;
  url?: string;
  status?: number;
  detail?: { [k: string]: unknown };
}
export type TimelineEvent = EvidenceEvent;

export type Timeline = readonly EvidenceEvent[];

/** What a task declares about its action's target request: the correlation key. */
export interface TargetContract {
  method: string;
  /** the path the target request (or one hop of its redirect chain) is sent to */
  path: string;
}

/** The target contract the action declared at its dispatch (detail.target), if any. */
export function targetOf(timeline: Timeline): TargetContract | undefined {
  const t = timeline.find((e) => e.source === 'runner' && e.type === 'dispatch')?.detail?.target as Partial<TargetContract> | undefined;
  return t && typeof t.method === 'string' && typeof t.path === 'string' ? { method: t.method, path: t.path } : undefined;
}

/** Sorted by time, stable for ties (events are appended in the order they were produced). */
export function byTime(events: Timeline): EvidenceEvent[] {
  return events.map((e, i) => [e, i] as const).sort((a, b) => a[0].t_ms - b[0].t_ms || a[1] - b[1]).map(([e]) => e);
}

/** The path of a URL or a bare path, without query or fragment; null when it does not parse. */
export function pathOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    return new URL(url, 'http://unused.invalid').pathname;
  } catch {
    return null;
  }
}

/** Rounds to a microsecond so rows serialise the same way on every run of the same events. */
export const roundMs = (t: number) => Math.round(t * 1000) / 1000;
