import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseCdp } from '../../../pipeline/browser/cdp-network.ts';
import { cdpToProcess } from '../../../pipeline/browser/clock.ts';

const raw = (method: string, params: Record<string, unknown>, observed = 0) => ({ method, params, observed });

test('CDP events become the study vocabulary: a redirect hop keeps the request id; started and completed stay apart', () => {
  const events = normaliseCdp([
    raw('Network.requestWillBeSent', { requestId: '7', timestamp: 100, type: 'Fetch', request: { url: 'http://h/a', method: 'POST' } }),
    raw('Network.requestWillBeSent', { requestId: '7', timestamp: 100.01, request: { url: 'http://h/b', method: 'POST' }, redirectResponse: { url: 'http://h/a', status: 307 } }),
    raw('Network.responseReceived', { requestId: '7', timestamp: 100.05, response: { url: 'http://h/b', status: 200, fromDiskCache: false, fromServiceWorker: true } }),
    raw('Network.loadingFinished', { requestId: '7', timestamp: 100.2, encodedDataLength: 10 }),
  ]);
  assert.deepEqual(events.map((e) => [e.type, e.request_id, e.url, e.status]), [
    ['request', '7', 'http://h/a', undefined],
    ['redirect', '7', 'http://h/b', 307],
    ['response', '7', 'http://h/b', 200],
    ['finished', '7', undefined, undefined],
  ]);
  assert.equal(events[2]!.detail!.from_service_worker, true);
  assert.equal(events[0]!.detail!.method, 'POST');
  // MonotonicTime seconds → process ms: differences are preserved exactly
  assert.ok(Math.abs(events[3]!.t_ms - events[2]!.t_ms - 150) < 1e-6);
  assert.equal(events[0]!.t_ms, cdpToProcess(100));
});

test('requestServedFromCache marks the response as from cache; loadingFailed becomes failed with its error', () => {
  const events = normaliseCdp([
    raw('Network.requestWillBeSent', { requestId: '9', timestamp: 5, request: { url: 'http://h/r', method: 'GET' } }),
    raw('Network.requestServedFromCache', { requestId: '9' }),
    raw('Network.responseReceived', { requestId: '9', timestamp: 5.001, response: { url: 'http://h/r', status: 200 } }),
    raw('Network.loadingFailed', { requestId: '9', timestamp: 5.002, errorText: 'net::ERR_CONTENT_LENGTH_MISMATCH', canceled: false }),
  ]);
  assert.equal(events.find((e) => e.type === 'response')!.detail!.from_cache, true);
  assert.deepEqual(events.find((e) => e.type === 'failed')!.detail!.error, 'net::ERR_CONTENT_LENGTH_MISMATCH');
});
