// Hand-made timelines for the unit tests of correlation and policies: small builders, so each
// test reads as the sequence of events it describes.
import type { EvidenceEvent } from '../../verifier/src/events.ts';

export const target = { method: 'POST', path: '/api/save' };

export const dispatch = (): EvidenceEvent => ({ t_ms: 0, source: 'runner', type: 'dispatch', detail: { target } });
export const horizon = (t = 1000): EvidenceEvent => ({ t_ms: t, source: 'runner', type: 'horizon' });
export const dom = (type: string, t: number): EvidenceEvent => ({ t_ms: t, source: 'dom', type });
export const app = (type: string, t: number): EvidenceEvent => ({ t_ms: t, source: 'app', type });
export const request = (id: string, t: number, url: string, method = 'POST'): EvidenceEvent =>
  ({ t_ms: t, source: 'network', type: 'request', request_id: id, url, detail: { method } });
export const redirect = (id: string, t: number, to: string, status = 307, method = 'POST'): EvidenceEvent =>
  ({ t_ms: t, source: 'network', type: 'redirect', request_id: id, url: to, status, detail: { method } });
export const response = (id: string, t: number, status = 200, detail: Record<string, unknown> = {}): EvidenceEvent =>
  ({ t_ms: t, source: 'network', type: 'response', request_id: id, status, detail });
export const finished = (id: string, t: number): EvidenceEvent => ({ t_ms: t, source: 'network', type: 'finished', request_id: id });
export const failed = (id: string, t: number, error = 'net::ERR_ABORTED'): EvidenceEvent =>
  ({ t_ms: t, source: 'network', type: 'failed', request_id: id, detail: { error } });
export const received = (t: number, path: string, method = 'POST'): EvidenceEvent => ({ t_ms: t, source: 'server', type: 'received', url: path, detail: { method } });

/** The target request sent at 2 ms, headers at 50 ms, body completed at 60 ms, with a status. */
export const targetRequest = (status = 200, id = 't1'): EvidenceEvent[] => [
  request(id, 2, 'http://127.0.0.1:9/api/save'),
  received(3, '/api/save'),
  response(id, 50, status),
  finished(id, 60),
];
