// The fault proxy: an HTTP(S) forward proxy on mockttp between the browser and any web app, which
// makes the five fault layers from a fault spec, with no change to the app. One proxy per worker;
// it runs in the harness's process, so its log is on the harness's clock (performance.now()).
//
//   browser ──(--proxy-server / network.proxy.*)──▶ 127.0.0.1:PORT (mockttp, loopback.ts)
//     ├─ a host it does not forward to (not loopback, not in `hosts`) ........ closed   (blocked)
//     ├─ rule 0: only under a transport fault that loses the write's answer: the spec's write,
//     │          as rule 2, its answer held in full so that it can be lost            (lost)
//     ├─ rule 1: a document of the spec's pages (whatever the layer): fetched from the app in
//     │          full, never revalidated, so that no copy cached under another condition shows;
//     │          with a page fault, the response's document gets it (inject.ts)            (inject)
//     └─ rule 2: everything else, pass-through — but the spec's write, when the plan holds it,
//                is answered by the proxy (success.ts) and forwarded later (state: answered,
//                then forwarded-late) or never (verification: dropped)
//   transport (a condition's transport fault, transport.ts): first of all, on the request it fires
//          at (the n-th page, write or asset since load, WAREX's rules): answered with an error
//          (failed, never reaches the app or the layer), delayed, its answer lost after the app
//          (or the layer) answered (lost), or a pop-up put into the document (inject)
//   which rule acts on a request, and on which count, is rules.ts's (pure: transportStep on
//   arrival, writeStep after any hold); this file does what they say on the wire
//   load(condition) ─▶ plan.ts: the layers' rules from layers.json, the transport fault from
//   transport.json, the seed's draws; reset() ─▶ pass-through again, the log and the transport
//   counts forgotten, held writes cancelled (never sent), and it resolves only once no write is
//   still on its way to the app (forwarded late, or passed through, and not yet answered), so that
//   a restore of the app after it cannot be overwritten by an earlier condition's write
//
// Nothing but the fault shows: no header is added, the page keeps its headers (but Content-Length,
// and a CSP that had to let the script in), the script leaves no element and no global. A failure
// of the proxy's own (a fault it could not apply, its server gone) or an app that does not answer
// is kept as `failure`, a ProxyError, so that the harness ends the condition as an infrastructure
// failure, never as the agent's outcome; `alive()` is the health check. The proxy fails closed: a
// write it should hold is never passed to the app because something went wrong.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { getLocal, type CompletedRequest, type Mockttp } from 'mockttp';
import { ProxyError } from './errors.ts';
import type { FaultLayers, FaultTransport, ProxyEvent } from './contracts.ts';
import { LOOPBACK, startOnLoopback } from './loopback.ts';
import { useExactLoopCheck } from './loop-check.ts';
import { quietAbandonedRequests } from './quiet.ts';
import { makeRunCA, type RunCA } from './certificate.ts';
import { layerTable, planFor, type Condition, type LayerTableName, type Plan } from './plan.ts';
import { isAssetRequest, isPageRequest, isWrite } from './match.ts';
import { checkTransportTable, errorPage } from './transport.ts';
import { transportStep, writeStep, type Fired } from './rules.ts';
import { caseHeaders, injectPageFault } from './inject.ts';
import { successAnswer } from './success.ts';
import { harRecorder, type Har } from './har.ts';
import { sendToApp, type HeldRequest } from './upstream.ts';

export type { ProxyEvent };

export interface FaultProxyOptions {
  /** intercept HTTPS with a CA made for this proxy (its key 0600 in stateDir) */
  https?: boolean;
  /** where the CA is written (with https); default a fresh temporary folder (0700), removed by close() */
  stateDir?: string;
  /** the port on 127.0.0.1; default 0, any free one */
  port?: number;
  /** hosts it forwards to besides loopback (127.0.0.0/8, localhost, ::1): names, or *.example.com */
  hosts?: string[];
  /** PEM certificates (the text, or a file's path) the proxy trusts for the app's own HTTPS, beside Node's roots */
  upstreamCA?: string[];
  /** each event once, when complete (its status first known, or its connection gone): the CLI service's events file */
  onEvent?: (event: ProxyEvent) => void;
  /** the transport faults' table (default proxy/faults/transport.json, the record's): a test's shorter waits, a user's own faults */
  transportTable?: FaultTransport;
  /** the layer table (default `current`, proxy/faults/layers.json; `v1`: the registered version 1 arms', plan.ts) or one of the caller's own */
  layerTable?: LayerTableName | FaultLayers;
  /** how long reset() waits for writes still on their way to the app (default 35 s: past the 30 s an upstream answer may take) */
  drainLimitMs?: number;
  /** keep a trimmed HAR of each condition's traffic (har.ts), for takeHar() */
  har?: boolean;
}

export interface FaultProxy {
  /** http://127.0.0.1:PORT, the browser's proxy server */
  readonly url: string;
  readonly port: number;
  /** with https: the run's CA (the browser trusts it; its key is 0600 in the state folder) */
  readonly ca: { certPath: string; spki: string } | null;
  /** the condition to apply from now on (a malformed one is refused, naming the field, and nothing changes) */
  load(condition: Condition): void;
  /**
   * back to pass-through: forgets the log (returned, with a cancelled event per held write) and
   * cancels held writes, which never reach the app; resolves once every write already on its way
   * to the app has its answer (or its connection is gone), and rejects with a ProxyError naming
   * them when one is still there after `drainLimitMs`
   */
  reset(): Promise<ProxyEvent[]>;
  /** writes on their way to the app now: forwarded late or passed through, not yet answered */
  writesAtApp(): number;
  /** with the har option: what the browser sent and was answered since the last load (or take), as a trimmed HAR 1.2; null without it */
  takeHar(): Promise<Har | null>;
  /** every request since the last load or reset, in arrival order (a copy) */
  readonly log: readonly ProxyEvent[];
  /** held writes not yet forwarded (State) */
  pendingWrites(): number;
  /** requests a transport fault holds now, before its error page or before passing them on */
  heldByTransport(): number;
  /** health check: listening, answering a connection, and no failure so far */
  alive(): Promise<boolean>;
  /** the first failure since the last load or reset (the proxy's own, or the app not answering), or null */
  readonly failure: ProxyError | null;
  /** stops it (held writes cancelled, never sent); twice is once */
  close(): Promise<void>;
}

const loopbackHost = (host: string) => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
const hostMatches = (pattern: string, host: string) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern);
const readPem = (value: string) => (value.includes('-----BEGIN') ? value : fs.readFileSync(value, 'utf8'));

/** Whether a TCP connection to 127.0.0.1:port opens within timeoutMs. */
function connects(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: LOOPBACK, port });
    const done = (ok: boolean) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

interface Held { event: ProxyEvent; request: HeldRequest; timer: NodeJS.Timeout }

/** A write on its way to the app, across conditions: what it is, and its end (answered, failed or gone). */
interface AtApp { what: string; done: Promise<void>; end: () => void }

export const DRAIN_LIMIT_MS = 35_000;

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startFaultProxy(options: FaultProxyOptions = {}): Promise<FaultProxy> {
  // mockttp's own loop check answers 500 when two loopback connections share a port (loop-check.ts)
  useExactLoopCheck();
  // mockttp's "Failed to handle request: socket hang up" for a request the browser gave up on: the log has it by name
  quietAbandonedRequests();
  const transportFaultTable = options.transportTable ? checkTransportTable(options.transportTable, 'the proxy\'s transportTable option') : undefined;
  const faultLayers = typeof options.layerTable === 'object' ? options.layerTable : layerTable(options.layerTable ?? 'current');
  // a folder only for what needs one (the CA); a start that fails removes the one it made
  const ownState = options.stateDir === undefined && options.https === true;
  const stateDir = options.stateDir ?? (options.https ? fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-fault-proxy-')) : '');
  const removeOwnState = () => { if (ownState) fs.rmSync(stateDir, { recursive: true, force: true }); };
  let ca: RunCA | null = null;
  try {
    ca = options.https ? await makeRunCA(stateDir) : null;
  } catch (error) {
    removeOwnState();
    throw error;
  }
  const upstreamCA = (options.upstreamCA ?? []).map(readPem);
  const hosts = options.hosts ?? [];

  const server: Mockttp = getLocal({
    https: ca ? { key: ca.key, cert: ca.cert } : undefined,
    http2: false,
    recordTraffic: false,
    cors: false,
  });

  let plan: Plan | null = null;
  let generation = 0; // bumped by load and reset: a late callback of an earlier condition changes nothing
  let events: ProxyEvent[] = [];
  let byRequest = new Map<string, ProxyEvent>();
  let held = new Map<number, Held>();
  let failure: ProxyError | null = null;
  let closing = false;
  let closed: Promise<void> | undefined;
  let nextId = 1;
  let port = 0;
  /** requests a transport fault holds now (a delay before its answer or before passing it on) */
  let holding = 0;
  /** matching requests since load, per transport match (an asset's per URL) */
  let counts = new Map<string, number>();
  /** the spec's writes since load (a layer whose later save commits counts them) */
  let writesSeen = 0;
  /** the requests whose answer a fired lost-response or pop-up acts on, by request id */
  let firedOn = new Map<string, Fired>();
  /** writes on their way to the app, kept across load and reset (a reset waits for them): by request id, or `late <event id>` */
  const atApp = new Map<string, AtApp>();
  const toApp = (key: string, what: string): void => {
    let end!: () => void;
    const done = new Promise<void>((resolve) => { end = resolve; });
    atApp.set(key, { what, done, end: () => { atApp.delete(key); end(); } });
  };
  const reachedAnswer = (key: string) => atApp.get(key)?.end();

  const fail = (error: ProxyError) => { failure ??= error; };
  // onEvent hears each event once, when its status is first known (or its connection gone)
  const told = new WeakSet<ProxyEvent>();
  const settled = (event: ProxyEvent) => {
    if (told.has(event)) return;
    told.add(event);
    options.onEvent?.({ ...event });
  };
  const record = (event: Omit<ProxyEvent, 'id'>, requestId?: string): ProxyEvent => {
    const full = { id: nextId++, ...event } as ProxyEvent;
    events.push(full);
    if (requestId && event.write) har?.markWrite(requestId);
    if (requestId) byRequest.set(requestId, full);
    return full;
  };

  const forwardsTo = (url: string): string | null => {
    let u: URL;
    try { u = new URL(url); } catch { return `not an absolute URL: ${url}`; }
    const host = u.hostname;
    const portOf = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    if (loopbackHost(host) || host === LOOPBACK) return portOf === port ? 'a request to the proxy itself' : null;
    return hosts.some((p) => hostMatches(p, host)) ? null : `${host} is not a host this proxy forwards to`;
  };

  const heldRequest = (req: CompletedRequest): HeldRequest => ({ method: req.method, url: req.url, rawHeaders: req.rawHeaders, body: req.body.buffer });

  /** Sends a held write to the app now: its forwarded-late event, and forwardedAt on the answered one. */
  const forward = (entry: Held, forGeneration: number) => {
    held.delete(entry.event.id);
    const t = performance.now();
    entry.event.forwardedAt = t;
    const late = record({ t, method: entry.request.method, url: entry.request.url, status: null, action: 'forwarded-late', write: true, forwardedAt: t, of: entry.event.id });
    const key = `late ${forGeneration}.${entry.event.id}`;
    toApp(key, `${entry.request.method} ${entry.request.url} (held, forwarded late)`);
    sendToApp(entry.request, { ca: upstreamCA }).finally(() => reachedAnswer(key)).then((answer) => {
      late.status = answer.status;
      late.answeredAt = performance.now();
      settled(late);
    }, (cause: unknown) => {
      late.error = (cause as Error).message;
      if (forGeneration === generation) fail(new ProxyError('app', `the held write ${entry.request.method} ${entry.request.url} could not be forwarded: ${(cause as Error).message}`, { cause }));
      settled(late);
    });
  };

  /** Every request's first stop: block, answer the write, or let it pass (to rule 2, or to rule 1's injection). */
  const beforeRequest = async (req: CompletedRequest, document = false) => {
    const t = req.timingEvents.startTimestamp;
    const blocked = forwardsTo(req.url);
    if (blocked) {
      settled(record({ t, method: req.method, url: req.url, status: null, action: 'blocked', write: false, detail: blocked }, req.id));
      return { response: 'close' as const };
    }
    const current = plan;
    const forGeneration = generation;
    let write = false;
    try {
      write = current ? await isWrite(current.spec, req) : false;
    } catch (cause) {
      // a request that may be the write and cannot be read is never passed on
      const event = record({ t, method: req.method, url: req.url, status: null, action: 'error', write: false, detail: 'could not tell whether this is the write' }, req.id);
      fail(new ProxyError('proxy', `${req.method} ${req.url}: could not tell whether it is the spec's write: ${(cause as Error).message}`, { cause }));
      settled(event);
      return { response: 'close' as const };
    }
    // the transport fault first: between the browser and everything behind the proxy
    const kind = write ? 'write' : document ? 'page' : isAssetRequest(req) ? 'asset' : null;
    const fired = transportStep(current, kind, req.url, counts);
    const tag = fired ? { transport: { fault: fired.plan.fault, match: fired.plan.match, n: fired.n, effect: fired.plan.effect.kind } } : {};
    if (fired) {
      const effect = fired.plan.effect;
      // a request held past the end of its condition belongs to no log: closed, never passed on
      const ended = () => forGeneration !== generation;
      const hold = async (ms: number) => { holding += 1; try { await sleepMs(ms); } finally { holding -= 1; } };
      if (effect.kind === 'answer') {
        if (effect.delayMs > 0) await hold(effect.delayMs);
        if (ended()) return { response: 'close' as const };
        const page = errorPage(effect.status);
        const event = record({ t, method: req.method, url: req.url, status: page.statusCode, action: 'failed', write, answeredAt: performance.now(), ...tag }, req.id);
        settled(event);
        return { response: { statusCode: page.statusCode, headers: page.headers, body: page.body } };
      }
      if (effect.kind === 'delay') {
        await hold(effect.delayMs);
        if (ended()) return { response: 'close' as const };
      }
      if (effect.kind === 'lose' || effect.kind === 'popup') firedOn.set(req.id, fired);
    }
    if (write) writesSeen += 1;
    // the layer's rule, once any transport hold is over
    const step = writeStep(current, write, writesSeen);
    if (step.does === 'pass') {
      record({ t, method: req.method, url: req.url, status: null, action: 'pass', write, ...tag, ...(step.detail ? { detail: step.detail } : {}) }, req.id);
      // the write goes on to the app: a reset waits until it is answered or gone
      if (write) toApp(req.id, `${req.method} ${req.url} (passed through)`);
      const conditional = Object.keys(req.headers).filter((h) => h === 'if-none-match' || h === 'if-modified-since');
      if (!document || conditional.length === 0) return undefined;
      const headers = { ...req.headers };
      for (const h of conditional) delete headers[h];
      return { headers };
    }
    // an answer comes only from a plan's write rule: current is that plan
    const hold = step.forwardAfterMs;
    try {
      const answer = await successAnswer(current!.spec, req, { ca: upstreamCA });
      const event = record({ t, method: req.method, url: req.url, status: answer.statusCode, action: hold === null ? 'dropped' : 'answered', write: true, answeredAt: performance.now(), ...tag }, req.id);
      if (hold !== null && forGeneration === generation) {
        const entry: Held = { event, request: heldRequest(req), timer: setTimeout(() => forward(entry, forGeneration), hold) };
        held.set(event.id, entry);
      }
      if (fired?.plan.effect.kind === 'lose') {
        // the layer's answer, lost on its way back: the write stays held (or dropped) as the layer says
        firedOn.delete(req.id);
        const lose = fired.plan.effect;
        event.appStatus = answer.statusCode;
        event.appAnsweredAt = event.answeredAt;
        delete event.answeredAt;
        event.status = null;
        event.action = hold === null ? 'dropped' : 'answered';
        event.detail = `the layer's answer ${answer.statusCode} lost (${lose.how})`;
        event.error = `lost: ${lose.how}`;
        settled(event);
        if (lose.how === 'timeout') await sleepMs(lose.holdMs);
        return { response: lose.how === 'reset' ? ('reset' as const) : ('close' as const) };
      }
      settled(event);
      return { response: { statusCode: answer.statusCode, headers: answer.headers, rawBody: answer.rawBody } };
    } catch (cause) {
      const event = record({ t, method: req.method, url: req.url, status: null, action: 'error', write: true, detail: `could not answer the write: ${(cause as Error).message}` }, req.id);
      fail(new ProxyError('proxy', `${req.method} ${req.url}: could not answer the spec's write (closed, never forwarded): ${(cause as Error).message}`, { cause }));
      settled(event);
      return { response: 'close' as const };
    }
  };

  const connection = { additionalTrustedCAs: upstreamCA.map((cert) => ({ cert })), simulateConnectionErrors: true };

  // rule 1: the spec's documents
  await server.forAnyRequest().asPriority(2).always()
    .matching(async (req) => plan !== null && forwardsTo(req.url) === null && isPageRequest(plan.spec, req) && !(await isWrite(plan.spec, req).catch(() => true)))
    .thenPassThrough({
      ...connection,
      beforeRequest: (req) => beforeRequest(req, true),
      beforeResponse: async (res, req) => {
        const current = plan;
        const event = byRequest.get(req.id);
        // mockttp writes the headers a callback returns; the app's own, as it wrote them, when nothing changes
        const unchanged = { headers: caseHeaders(res.rawHeaders) };
        const popup = firedOn.get(req.id);
        firedOn.delete(req.id);
        const popupEffect = popup?.plan.effect.kind === 'popup' ? popup.plan.effect : null;
        if ((!current?.page && !popupEffect) || !event || event.action !== 'pass') return unchanged;
        try {
          const page = current?.page ?? { hideMs: 0, decoys: 0, decoysBefore: 0, swallow: 0 };
          const done = await injectPageFault(
            { statusCode: res.statusCode, rawHeaders: res.rawHeaders, decoded: () => res.body.getDecodedBuffer() },
            // a pop-up only where the fault fired: every other document gets the settings it always got
            { selector: current!.spec.spec.target.selector, name: current!.spec.spec.target.name, ...page, ...(popupEffect ? { popup: { title: popupEffect.title, button: popupEffect.button } } : {}) },
          );
          if (!done.injected) { event.detail = `not injected: ${done.why}`; return unchanged; }
          event.action = 'inject';
          event.detail = done.detail;
          return { headers: done.headers, rawBody: done.rawBody };
        } catch (cause) {
          // the document would arrive without the fault the condition says it has: never silently
          event.action = 'error';
          event.detail = `could not inject the page fault: ${(cause as Error).message}`;
          fail(new ProxyError('proxy', `${req.url}: could not inject the page fault: ${(cause as Error).message}`, { cause }));
          return 'close' as const;
        }
      },
    });
  // rule 2: everything else
  await server.forAnyRequest().asPriority(1).always().thenPassThrough({ ...connection, beforeRequest });
  // rule 0 (first of all, only under a condition whose transport fault loses the write's answer):
  // the spec's write, passed through as rule 2 does, whose answer is then lost when the fault fires
  // on it. A rule of its own, so that no other condition's responses are held in full by a callback
  await server.forAnyRequest().asPriority(3).always()
    .matching(async (req) => plan?.transport?.effect.kind === 'lose' && forwardsTo(req.url) === null && (await isWrite(plan.spec, req).catch(() => false)))
    .thenPassThrough({
      ...connection,
      beforeRequest,
      beforeResponse: async (res, req) => {
        const fired = firedOn.get(req.id);
        firedOn.delete(req.id);
        const event = byRequest.get(req.id);
        if (fired?.plan.effect.kind !== 'lose' || !event || event.action !== 'pass') return { headers: caseHeaders(res.rawHeaders) };
        // the app has answered (its write committed): the browser never gets that answer
        const lose = fired.plan.effect;
        reachedAnswer(req.id); // the app has answered: what is lost is only its way back
        event.action = 'lost';
        event.appStatus = res.statusCode;
        event.appAnsweredAt = performance.now();
        event.detail = `the app's answer ${res.statusCode} lost (${lose.how}${lose.how === 'timeout' ? ` after ${lose.holdMs} ms` : ''})`;
        event.error = `lost: ${lose.how}`;
        settled(event);
        if (lose.how === 'timeout') await sleepMs(lose.holdMs);
        return lose.how === 'reset' ? ('reset' as const) : ('close' as const);
      },
    });

  const har = options.har ? harRecorder() : null;
  if (har) {
    await server.on('request', har.request);
    await server.on('response', har.response);
  }

  await server.on('response-initiated', (res) => {
    reachedAnswer(res.id);
    const event = byRequest.get(res.id);
    // a request the browser gave up on got nothing, whatever mockttp wrote after (a 500 to a closed socket)
    if (!event || event.error !== undefined) return;
    event.status = res.statusCode;
    event.answeredAt ??= performance.now();
    if (event.action === 'pass' || event.action === 'inject' || event.action === 'error') settled(event);
  });
  await server.on('abort', (req) => {
    // gone: whatever the app does with it now, nothing of it reaches the browser or this log
    reachedAnswer(req.id);
    har?.abort(req);
    const event = byRequest.get(req.id);
    const message = req.error?.message ?? 'the connection closed before an answer';
    if (event && event.action !== 'blocked' && event.error === undefined) {
      event.status = null;
      event.error = message;
      settled(event);
    }
    if (/^Upstream connection error/.test(message)) fail(new ProxyError('app', `${req.method} ${req.url}: the app did not answer (${message})`));
  });

  try {
    port = await startOnLoopback(server, options.port ?? 0);
  } catch (error) {
    removeOwnState();
    throw error;
  }
  const combo = (server as unknown as { server?: net.Server }).server;
  combo?.on('close', () => { if (!closing) fail(new ProxyError('proxy', `the proxy on ${LOOPBACK}:${port} stopped listening`)); });
  combo?.on('error', (cause) => fail(new ProxyError('proxy', `the proxy on ${LOOPBACK}:${port} failed: ${cause.message}`, { cause })));

  const cancelHeld = (): ProxyEvent[] => {
    const cancelled: ProxyEvent[] = [];
    for (const entry of held.values()) {
      clearTimeout(entry.timer);
      const event = record({ t: performance.now(), method: entry.request.method, url: entry.request.url, status: null, action: 'cancelled', write: true, of: entry.event.id });
      settled(event);
      cancelled.push(event);
    }
    held = new Map();
    return cancelled;
  };
  /** Waits until no write is on its way to the app; a ProxyError naming them after drainLimitMs. */
  const drain = async (): Promise<void> => {
    if (atApp.size === 0) return;
    const limit = options.drainLimitMs ?? DRAIN_LIMIT_MS;
    let timer: NodeJS.Timeout | undefined;
    const outlasted = new Promise<'outlasted'>((resolve) => { timer = setTimeout(() => resolve('outlasted'), limit); });
    const all = Promise.all([...atApp.values()].map((w) => w.done)).then(() => 'drained' as const);
    const how = await Promise.race([all, outlasted]);
    clearTimeout(timer);
    if (how === 'outlasted') {
      const what = [...atApp.values()].map((w) => w.what);
      throw new ProxyError('app', `${what.length} write${what.length === 1 ? '' : 's'} still on the way to the app ${limit} ms after the reset, so the app cannot be restored safely: ${what.join('; ')}`);
    }
  };
  const forget = () => {
    har?.clear();
    generation += 1;
    events = [];
    byRequest = new Map();
    counts = new Map();
    writesSeen = 0;
    firedOn = new Map();
    failure = null;
    nextId = 1;
  };

  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    ca: ca ? { certPath: ca.certPath, spki: ca.spki } : null,
    load(condition) {
      const next = planFor(condition, faultLayers, transportFaultTable); // throws on a malformed condition, before anything changes
      cancelHeld();
      forget();
      plan = next;
    },
    async reset() {
      cancelHeld();
      const was = events.map((e) => ({ ...e }));
      forget();
      plan = null;
      await drain();
      return was;
    },
    writesAtApp: () => atApp.size,
    takeHar: async () => (har ? har.take() : null),
    get log() { return events.map((e) => ({ ...e })); },
    pendingWrites: () => held.size,
    heldByTransport: () => holding,
    async alive() {
      if (closing || failure || !combo?.listening) return false;
      return connects(port);
    },
    get failure() { return failure; },
    close() {
      closed ??= (async () => {
        closing = true;
        cancelHeld();
        plan = null;
        await server.stop();
        removeOwnState();
      })();
      return closed;
    },
  };
}
