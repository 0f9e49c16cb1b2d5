// Chromium's network evidence over raw CDP (a session of our own, beside Playwright's):
// Network.requestWillBeSent (a redirect hop when it carries redirectResponse; the hop keeps the
// requestId, so a chain is one request_id), responseReceived (response started, with
// fromDiskCache / fromServiceWorker), requestServedFromCache, loadingFinished (response
// completed) and loadingFailed. Times are CDP MonotonicTime mapped exactly onto the process clock;
// each event also keeps when the runner received it (detail.observed_ms).
import type { CDPSession, Page } from 'playwright-core';
import type { EvidenceEvent } from '../../verifier/src/events.ts';
import { cdpToProcess, processNow } from './clock.ts';
import type { NetworkDriver } from './network-driver.ts';

interface Raw { method: string; params: any; observed: number }

const recorded = ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.requestServedFromCache', 'Network.loadingFinished', 'Network.loadingFailed'];

export async function startCdpNetwork(page: Page): Promise<NetworkDriver> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const raw: Raw[] = [];
  for (const method of recorded) session.on(method as 'Network.requestWillBeSent', (params) => raw.push({ method, params, observed: processNow() }));
  await session.send('Network.enable');
  return {
    capabilities: { protocol: 'cdp', network_clock: 'CDP MonotonicTime, mapped exactly', from_cache: true, from_service_worker: true },
    async stop() {
      await session.detach().catch(() => undefined); // the page may already be closing
      return normaliseCdp(raw);
    },
  };
}

export function normaliseCdp(raw: readonly Raw[]): EvidenceEvent[] {
  const fromCache = new Set<string>();
  const events: EvidenceEvent[] = [];
  for (const { method, params: p, observed } of raw) {
    const base = { source: 'network' as const, request_id: String(p.requestId) };
    const t_ms = typeof p.timestamp === 'number' ? cdpToProcess(p.timestamp) : observed;
    switch (method) {
      case 'Network.requestWillBeSent':
        if (p.redirectResponse) {
          events.push({ ...base, t_ms, type: 'redirect', url: p.request.url, status: p.redirectResponse.status, detail: { method: p.request.method, from: p.redirectResponse.url, observed_ms: observed } });
        } else {
          events.push({ ...base, t_ms, type: 'request', url: p.request.url, detail: { method: p.request.method, resource_type: String(p.type ?? '').toLowerCase(), observed_ms: observed } });
        }
        break;
      case 'Network.requestServedFromCache':
        fromCache.add(base.request_id);
        break;
      case 'Network.responseReceived': {
        const r = p.response;
        const cached = Boolean(r.fromDiskCache || r.fromPrefetchCache || fromCache.has(base.request_id));
        events.push({ ...base, t_ms, type: 'response', url: r.url, status: r.status, detail: { from_cache: cached, from_service_worker: Boolean(r.fromServiceWorker), observed_ms: observed } });
        break;
      }
      case 'Network.loadingFinished':
        events.push({ ...base, t_ms, type: 'finished', detail: { bytes: p.encodedDataLength, observed_ms: observed } });
        break;
      case 'Network.loadingFailed':
        events.push({ ...base, t_ms, type: 'failed', detail: { error: p.errorText, canceled: Boolean(p.canceled), observed_ms: observed } });
        break;
    }
  }
  return events;
}
