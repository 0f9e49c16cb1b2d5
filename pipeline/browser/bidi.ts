// A raw WebDriver BiDi connection: commands and their answers, nothing more. The harness uses it
// where Playwright cannot be the client — a Firefox that an outside agent drives next
// (pipeline/agents/agent-browser.ts): Playwright keeps its session for the browser's lifetime, and
// Firefox ESR takes one session at a time.
//
//   connectBiDi(ws://127.0.0.1:PORT/session) ─▶ send('session.new', …) ─▶ … ─▶ send('session.end') ─▶ close()
//
// The WebSocket is playwright-core's bundled `ws` (utils-bundle.d.ts): the harness's one pinned
// browser dependency, so no second WebSocket library and no Node flag.
import bundle from 'playwright-core/lib/utilsBundle';
import { RStackError } from '../../core/errors.ts';

export interface BiDiConnection {
  /** a command; resolves with its result, rejects with the browser's error (or a closed connection, or `timeoutMs`) */
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const COMMAND_TIMEOUT_MS = 30_000;

export async function connectBiDi(url: string, timeoutMs = 10_000): Promise<BiDiConnection> {
  const socket = new bundle.ws(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => { socket.close(); reject(new RStackError(`${url}: no WebDriver BiDi connection within ${timeoutMs} ms`)); }, timeoutMs);
    socket.once('open', () => { clearTimeout(timer); resolve(); });
    socket.once('error', (cause) => { clearTimeout(timer); reject(new RStackError(`${url}: the WebDriver BiDi connection failed: ${cause.message}`, { cause })); });
  });
  let lastId = 0;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  const failAll = (error: Error) => {
    for (const { reject, timer } of pending.values()) { clearTimeout(timer); reject(error); }
    pending.clear();
  };
  socket.on('message', (data) => {
    // events (none are subscribed) and answers to other clients' commands are not ours
    const message = JSON.parse(data.toString('utf8')) as { id?: number; type?: string; result?: unknown; error?: string; message?: string };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    clearTimeout(waiting.timer);
    if (message.type === 'error') waiting.reject(new RStackError(`WebDriver BiDi: ${message.error}: ${message.message}`));
    else waiting.resolve(message.result);
  });
  socket.on('error', (cause) => failAll(new RStackError(`${url}: ${cause.message}`, { cause })));
  socket.on('close', () => failAll(new RStackError(`${url}: the WebDriver BiDi connection closed`)));
  return {
    send<T>(method: string, params: Record<string, unknown> = {}, commandTimeoutMs = COMMAND_TIMEOUT_MS): Promise<T> {
      if (socket.readyState !== bundle.ws.OPEN) return Promise.reject(new RStackError(`${url}: ${method}: the WebDriver BiDi connection is closed`));
      const id = ++lastId;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => { pending.delete(id); reject(new RStackError(`WebDriver BiDi: ${method}: no answer within ${commandTimeoutMs} ms`)); }, commandTimeoutMs);
        pending.set(id, { resolve: resolve as (result: unknown) => void, reject: (e) => reject(new RStackError(`${method}: ${e.message}`, { cause: e })), timer });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState > bundle.ws.OPEN) return resolve();
        socket.once('close', resolve);
        socket.close();
      }),
  };
}
