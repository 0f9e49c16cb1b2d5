// Plain HTTP through a forward proxy (absolute-form request line), and the same request direct, for
// the proxy's tests that need no browser: what comes back, headers as written, body as sent.
import http from 'node:http';
import { readAnswer } from '../../proxy/src/upstream.ts';

export interface Got { status: number; rawHeaders: [string, string][]; body: Buffer }
export type Outcome = Got | { closed: string };

interface RequestOptions { method?: string; headers?: Record<string, string>; body?: string }

function send(options: http.RequestOptions, body: string | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request({ ...options, agent: false }, (res) => {
      readAnswer(res).then(resolve, (e: Error) => resolve({ closed: e.message }));
    });
    req.on('error', (e) => resolve({ closed: e.message }));
    req.end(body);
  });
}

/** A request to `target` (an absolute URL) through the proxy at proxyUrl. */
export function viaProxy(proxyUrl: string, target: string, options: RequestOptions = {}): Promise<Outcome> {
  const proxy = new URL(proxyUrl);
  return send({ host: proxy.hostname, port: proxy.port, method: options.method ?? 'GET', path: target, headers: { Host: new URL(target).host, ...options.headers } }, options.body);
}

/** The same request straight to the app. */
export function direct(target: string, options: RequestOptions = {}): Promise<Outcome> {
  const url = new URL(target);
  return send({ host: url.hostname, port: url.port, method: options.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: { Host: url.host, ...options.headers } }, options.body);
}

export function answered(outcome: Outcome): Got {
  if ('closed' in outcome) throw new Error(`the connection closed: ${outcome.closed}`);
  return outcome;
}

/** The header's value (the first, any case), or undefined. */
export const header = (got: Got, name: string) => got.rawHeaders.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

/** Headers as comparable lines, without Date (it moves with time). */
export const headerLines = (got: Got, except: string[] = []) =>
  got.rawHeaders.filter(([n]) => !['date', ...except].includes(n.toLowerCase())).map(([n, v]) => `${n}: ${v}`);
