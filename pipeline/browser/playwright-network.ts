// Firefox's network evidence through Playwright's engine-neutral events (over WebDriver BiDi with
// the moz-firefox channel; no CDP): request, response (headers arrived: response STARTED),
// requestfinished (body complete: response COMPLETED) and requestfailed.
//
// Playwright gives each redirect hop its own Request (linked by redirectedFrom/redirectedTo) and
// fires response/requestfinished for the 3xx hops too; to keep ONE vocabulary the hops are folded
// into one request_id per chain with a `redirect` event per hop, as CDP reports them.
//
// Times: Playwright delivers these events late and sometimes batched (a redirect hop's response
// arrives with the next hop), so where the browser's resource timing is filled in, t_ms is that
// (request.timing(): startTime epoch ms + responseStart / responseEnd), mapped through the wall
// clock; otherwise (cache and service-worker hits report -1, failures report nothing) it is the
// time the runner received the event, an upper bound. detail.clock says which.
// Not reported through this API in Firefox: served-from-cache, and served-by-service-worker
// (fromServiceWorker() reads false for a response a service worker answered), so both are null.
import type { Page, Request, Response } from 'playwright-core';
import type { EvidenceEvent } from '../../verifier/src/events.ts';
import { epochToProcess, processNow } from './clock.ts';
import type { NetworkDriver } from './network-driver.ts';

type Raw =
  | { kind: 'request'; request: Request; observed: number }
  | { kind: 'response'; request: Request; response: Response; observed: number }
  | { kind: 'finished' | 'failed'; request: Request; observed: number };

export function startPlaywrightNetwork(page: Page): NetworkDriver {
  const raw: Raw[] = [];
  const onRequest = (request: Request) => raw.push({ kind: 'request', request, observed: processNow() });
  const onResponse = (response: Response) => raw.push({ kind: 'response', request: response.request(), response, observed: processNow() });
  const onFinished = (request: Request) => raw.push({ kind: 'finished', request, observed: processNow() });
  const onFailed = (request: Request) => raw.push({ kind: 'failed', request, observed: processNow() });
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  return {
    capabilities: {
      protocol: 'webdriver-bidi',
      network_clock: 'resource timing via the wall clock where filled in, else arrival at the runner',
      from_cache: false,
      from_service_worker: false,
    },
    async stop() {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onFinished);
      page.off('requestfailed', onFailed);
      return normalisePlaywright(raw);
    },
  };
}

function normalisePlaywright(raw: readonly Raw[]): EvidenceEvent[] {
  const ids = new Map<Request, string>();
  const rootOf = (r: Request): Request => {
    let at = r;
    for (let from = at.redirectedFrom(); from; from = at.redirectedFrom()) at = from;
    return at;
  };
  const idOf = (r: Request) => {
    const root = rootOf(r);
    if (!ids.has(root)) ids.set(root, `pw-${ids.size + 1}`);
    return ids.get(root)!;
  };
  const statusOf = new Map<Request, number>();
  for (const r of raw) if (r.kind === 'response') statusOf.set(r.request, r.response.status());

  const events: EvidenceEvent[] = [];
  for (const r of raw) {
    const request = r.request;
    const timing = request.timing();
    const start = timing.startTime > 0 ? epochToProcess(timing.startTime) : null;
    const at = (offset: number | null) =>
      start !== null && offset !== null && offset >= 0
        ? { t_ms: start + offset, clock: 'resource-timing' }
        : { t_ms: r.observed, clock: 'arrival' };
    const base = { source: 'network' as const, request_id: idOf(request) };
    const redirectedTo = request.redirectedTo();
    switch (r.kind) {
      case 'request': {
        const from = request.redirectedFrom();
        const when = at(0);
        if (from) {
          events.push({ ...base, t_ms: when.t_ms, type: 'redirect', url: request.url(), ...(statusOf.has(from) ? { status: statusOf.get(from)! } : {}), detail: { method: request.method(), from: from.url(), clock: when.clock, observed_ms: r.observed } });
        } else {
          events.push({ ...base, t_ms: when.t_ms, type: 'request', url: request.url(), detail: { method: request.method(), resource_type: request.resourceType(), clock: when.clock, observed_ms: r.observed } });
        }
        break;
      }
      case 'response': {
        if (redirectedTo) break; // a 3xx hop: already the redirect event of the next hop
        const when = at(timing.responseStart);
        events.push({ ...base, t_ms: when.t_ms, type: 'response', url: r.response.url(), status: r.response.status(), detail: { from_cache: null, from_service_worker: null, clock: when.clock, observed_ms: r.observed } });
        break;
      }
      case 'finished': {
        if (redirectedTo) break;
        const when = at(timing.responseEnd);
        events.push({ ...base, t_ms: when.t_ms, type: 'finished', detail: { clock: when.clock, observed_ms: r.observed } });
        break;
      }
      case 'failed':
        events.push({ ...base, t_ms: r.observed, type: 'failed', detail: { error: request.failure()?.errorText ?? 'unknown', clock: 'arrival', observed_ms: r.observed } });
        break;
    }
  }
  return events;
}
