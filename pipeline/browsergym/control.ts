// The control endpoint a BrowserGym task of the suite talks to (browsergym/src/browsergym/rstackbench/
// control.py): one HTTP server on 127.0.0.1, on a free port, per worker, beside its fixture server.
//
//   POST /episode/<token>/<step>   JSON body ─▶ the episode that holds <token> (episode.ts)
//
// Each episode gets a fresh random token, and only its own process is told it, so a process left
// from an earlier condition can never act on the current one; an unknown token is 404, a body that
// is not JSON 400. The episode decides each answer, and may hold it (its /end waits for the score).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../../fixtures/server.ts';

export type ControlStep = 'setup' | 'opened' | 'moment' | 'end' | 'result';
const steps: readonly ControlStep[] = ['setup', 'opened', 'moment', 'end', 'result'];

export interface ControlAnswer { status: number; body: unknown }
export type EpisodeHandler = (step: ControlStep, body: unknown) => Promise<ControlAnswer>;

export interface ControlServer {
  readonly origin: string;
  /** this episode's base URL, e.g. http://127.0.0.1:PORT/episode/<token> */
  open(token: string, handler: EpisodeHandler): string;
  close(token: string): void;
  stop(): Promise<void>;
}

/** the most a control request may carry (a claim's message, a watch report) */
const MAX_BODY_BYTES = 256 * 1024;

export async function startControlServer(): Promise<ControlServer> {
  const episodes = new Map<string, EpisodeHandler>();
  const server = http.createServer((req, res) => {
    const m = /^\/episode\/([0-9a-f]{16,64})\/([a-z]+)$/.exec(req.url ?? '');
    const handler = m ? episodes.get(m[1]!) : undefined;
    const step = m?.[2] as ControlStep | undefined;
    if (req.method !== 'POST' || !handler || !step || !steps.includes(step)) {
      req.resume();
      return sendJson(res, 404, { error: 'no such episode or step' });
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY_BYTES) req.destroy();
    });
    req.on('end', () => {
      let value: unknown;
      try {
        value = body ? JSON.parse(body) : {};
      } catch {
        return sendJson(res, 400, { error: 'the body is not JSON' });
      }
      handler(step, value).then(
        (answer) => { if (!res.destroyed) sendJson(res, answer.status, answer.body); },
        (error: unknown) => { if (!res.destroyed) sendJson(res, 500, { error: (error as Error)?.message ?? String(error) }); },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    open(token, handler) {
      episodes.set(token, handler);
      return `${origin}/episode/${token}`;
    },
    close(token) {
      episodes.delete(token);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        episodes.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
