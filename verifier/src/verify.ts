// The live verifier: attach it to a Playwright page, then verify each action with its contract.
//
//   attach(page) ── listens to Playwright's public events: request, response, requestfinished,
//                   requestfailed (the same over CDP in Chromium and WebDriver BiDi in Firefox),
//                   close, crash, framenavigated
//   verify(contract)
//     1. validate the contract (a ContractError names the field)       declared
//     2. t = 0; call the action                                        → dispatched
//     3. record what the page shows                                    → ui-observed
//     4. wait for exactly one request of the family                    → correlated
//     5. wait for its terminal event; classify it                      → transport-resolved
//     6. wait for the semantic predicate (or a negative state)         → semantic-checked
//     7. the independent re-read, when declared                        → re-read
//     8.                                                               → closed
//   Any stage can end the record instead: failed (reason) or ambiguous (reason). Every wait is
//   bounded by the contract's timeout from the dispatch; a closed or crashed page, or a navigation
//   the contract does not expect, fails the action at once.
//
// One clock: every event and every move is stamped with performance.now() in this process, in ms
// from the dispatch, when this process learned of it.
import { performance } from 'node:perf_hooks';
import type { Frame, Page, Request, Response } from 'playwright-core';
import type { EvidenceEvent } from './events.ts';
import { describeFamily, validateContract, type ActionContract, type ReadContext } from './contract.ts';
import { declared, step, type EvidenceInput, type EvidenceRecord } from './machine.ts';
import { chainDetail, correlationStage, eventStage, transportStage } from './stages.ts';

export interface VerifyResult extends EvidenceRecord {
  /** the timeline the verifier saw, on the record's clock (network events and notes) */
  timeline: EvidenceEvent[];
}

export interface Verifier {
  /** runs the action under its contract; resolves with the record, never rejects but for a ContractError */
  verify(contract: ActionContract): Promise<VerifyResult>;
  /** adds an event the agent learned of (an app's own commit, say) to the timeline, stamped now */
  note(event: Omit<EvidenceEvent, 't_ms'>): void;
  /** removes the listeners */
  detach(): void;
}

/** How often a wait looks again. */
const pollMs = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Stop {
  constructor(readonly reason: string) {}
}

export function attach(page: Page): Verifier {
  type Stamped = { abs: number; event: Omit<EvidenceEvent, 't_ms'> };
  let stamped: Stamped[] = [];
  let interruption: string | null = null;
  let watching = false;
  let navigationAllowed = false;
  const ids = new WeakMap<Request, string>();
  let nextId = 0;
  const rootOf = (r: Request) => {
    let at = r;
    for (let from = at.redirectedFrom(); from; from = at.redirectedFrom()) at = from;
    return at;
  };
  const idOf = (r: Request) => {
    const root = rootOf(r);
    if (!ids.has(root)) ids.set(root, `v-${++nextId}`);
    return ids.get(root)!;
  };
  const push = (event: Omit<EvidenceEvent, 't_ms'>) => stamped.push({ abs: performance.now(), event });

  const onRequest = (request: Request) => {
    const from = request.redirectedFrom();
    const base = { source: 'network' as const, request_id: idOf(request), url: request.url() };
    if (from) push({ ...base, type: 'redirect', detail: { method: request.method(), from: from.url() } });
    else push({ ...base, type: 'request', detail: { method: request.method(), resource_type: request.resourceType() } });
  };
  // A redirect hop's response and completion are not the chain's end: the next hop's `redirect`
  // event stands for them. At the time they arrive redirectedTo() may not be known yet, so a 3xx
  // with a Location header marks its request as a hop.
  const hops = new WeakSet<Request>();
  const onResponse = (response: Response) => {
    const request = response.request();
    if (request.redirectedTo() || (response.status() >= 300 && response.status() < 400 && response.headers().location !== undefined)) {
      hops.add(request);
      return;
    }
    push({ source: 'network', request_id: idOf(request), type: 'response', url: response.url(), status: response.status(), detail: { from_service_worker: response.fromServiceWorker() } });
  };
  const onFinished = (request: Request) => {
    if (request.redirectedTo() || hops.has(request)) return;
    push({ source: 'network', request_id: idOf(request), type: 'finished' });
  };
  const onFailed = (request: Request) => push({ source: 'network', request_id: idOf(request), type: 'failed', detail: { error: request.failure()?.errorText ?? 'unknown' } });
  const onClose = () => { if (watching) interruption ??= 'the page closed during the action'; };
  const onCrash = () => { if (watching) interruption ??= 'the page crashed during the action'; };
  const onNavigated = (frame: Frame) => {
    if (watching && !navigationAllowed && frame === page.mainFrame()) interruption ??= `the page navigated away to ${frame.url()} during the action`;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('close', onClose);
  page.on('crash', onCrash);
  page.on('framenavigated', onNavigated);

  async function verify(contract: ActionContract): Promise<VerifyResult> {
    validateContract(contract);
    stamped = [];
    interruption = page.isClosed() ? 'the page was closed before the action' : null;
    navigationAllowed = contract.navigates === true;
    const origin = performance.now();
    const deadline = origin + contract.timeoutMs;
    const now = () => performance.now() - origin;
    const timeline = (): EvidenceEvent[] => stamped.map((s) => ({ t_ms: s.abs - origin, ...s.event }));
    const window = () => ({ start: 0, end: now() });
    const ctx = (): ReadContext => ({ page, request: page.request, timeline: timeline() });
    let record = declared(contract.id);
    const move = (input: EvidenceInput, detail: Record<string, unknown> = {}) => { record = step(record, input, now(), detail); };
    const unclear = (reason: string, detail: Record<string, unknown> = {}) => move(contract.ambiguity === 'fail' ? 'fail' : 'ambiguity', { reason, ...detail });
    const done = (): VerifyResult => {
      watching = false;
      return { ...record, timeline: timeline() };
    };

    /** Resolves with what `probe` returns first (undefined: not yet), or a Stop on interruption or the deadline. */
    async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, last?: () => string): Promise<T | Stop> {
      for (;;) {
        if (interruption) return new Stop(interruption);
        const left = deadline - performance.now();
        if (left <= 0) return new Stop(`timeout: ${what} within ${contract.timeoutMs} ms${last ? `; last seen: ${last()}` : ''}`);
        let value: T | undefined;
        try {
          value = await race(Promise.resolve().then(probe), left);
        } catch (error) {
          return new Stop(interruption ?? `a check threw while waiting (${what}): ${(error as Error)?.message ?? String(error)}`);
        }
        if (interruption) return new Stop(interruption);
        if (value !== undefined) return value;
        await sleep(pollMs);
      }
    }
    /** The promise, or undefined once `ms` have passed, or when the page is interrupted. */
    async function race<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
      let timer: NodeJS.Timeout | undefined;
      let watch: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          p,
          new Promise<undefined>((resolve) => { timer = setTimeout(() => resolve(undefined), ms); }),
          new Promise<undefined>((resolve) => { watch = setInterval(() => { if (interruption) resolve(undefined); }, pollMs); }),
        ]);
      } finally {
        clearTimeout(timer);
        clearInterval(watch);
      }
    }

    watching = true;
    move('dispatch', { action: contract.id, request: describeFamily(contract.request), semantic: contract.semantic.kind, timeout_ms: contract.timeoutMs });
    if (interruption) return (move('fail', { reason: interruption }), done());

    // 2. the action itself, bounded like every other wait
    const ran = Promise.resolve().then(contract.action).then(() => 'returned' as const, (error: unknown) => new Stop(`the action threw: ${(error as Error)?.message ?? String(error)}`));
    const outcome = await until('the action did not return', async () => ran);
    if (outcome instanceof Stop) return (move('fail', { reason: outcome.reason }), done());

    // 3. what the page shows: recorded, never decisive
    const ui: Record<string, unknown> = { url: safeUrl(page) };
    if (contract.ui) {
      const text = await until('the ui selector', async () => ({ text: await page.locator(contract.ui!).first().textContent({ timeout: 0 }).catch(() => null) }));
      if (text instanceof Stop) return (move('fail', { reason: text.reason }), done());
      ui.text = text.text;
    }
    move('observe-ui', ui);

    // 4-5. correlation and transport
    if (contract.request === 'none') {
      move('correlate', { expected: 'none' });
      move('resolve-transport', { expected: 'none' });
    } else {
      const family = describeFamily(contract.request);
      let seenUnrelated: string[] = [];
      const c = await until(`no request ${family} was sent`, () => {
        const s = correlationStage(timeline(), contract.request, window());
        if (s.kind === 'uncorrelated') { seenUnrelated = s.unrelated; return undefined; }
        return s;
      }, () => (seenUnrelated.length ? seenUnrelated.join(', ') : 'no request at all'));
      if (c instanceof Stop) return (move('fail', { reason: c.reason }), done());
      if (c.kind === 'ambiguous') return (unclear(`${c.request_ids.length} requests of the family ${family} were sent; none can be attributed`, { request_ids: c.request_ids }), done());
      if (c.kind !== 'correlated') throw new Error('unreachable');
      move('correlate', chainDetail(c.chain));
      const t = await until(`the request ${family} reached no terminal event`, () => {
        const again = correlationStage(timeline(), contract.request, window());
        if (again.kind === 'ambiguous') return { kind: 'ambiguous' as const, t_ms: now(), status: null, terminal: 'finished' as const, reason: `${again.request_ids.length} requests of the family ${family} were sent; none can be attributed` };
        const chain = again.kind === 'correlated' ? again.chain : c.chain;
        const s = transportStage(chain, contract);
        return s.kind === 'pending' ? undefined : s;
      });
      if (t instanceof Stop) return (move('fail', { reason: t.reason }), done());
      const detail = { status: t.status, terminal: t.terminal, terminal_t_ms: t.t_ms };
      if (t.kind === 'failure') return (move('fail', { reason: t.reason, ...detail }), done());
      if (t.kind === 'ambiguous') return (unclear(t.reason, detail), done());
      move('resolve-transport', detail);
    }

    // 6. the semantic predicate
    const s = contract.semantic;
    let lastSeen = 'nothing';
    const sem = await until('the semantic predicate did not hold', async () => {
      switch (s.kind) {
        case 'dom': {
          for (const sel of s.negative ?? []) if (await page.locator(sel).count() > 0) return { holds: false, detail: { negative: sel } };
          if (await page.locator(s.success).count() > 0) return { holds: true, detail: { selector: s.success } };
          lastSeen = `no element matches ${s.success}`;
          return undefined;
        }
        case 'event': {
          const e = eventStage(timeline(), s.success, s.negative ?? [], window());
          return e.kind === 'pending' ? undefined : { holds: e.kind === 'holds', detail: e.detail };
        }
        case 'read-back': {
          const value = await readOrNote(() => s.read(ctx()));
          if (value === noValue) return undefined;
          if (s.negative?.(value)) return { holds: false, detail: { negative: preview(value) } };
          if (s.success(value)) return { holds: true, detail: { value: preview(value) } };
          lastSeen = preview(value);
          return undefined;
        }
        case 'result-set': {
          const items = await readOrNote(() => s.read(ctx()));
          if (items === noValue) return undefined;
          if (!Array.isArray(items)) { lastSeen = `a read that is not a result set: ${preview(items)}`; return undefined; }
          const matching = items.filter((i) => s.matches(i)).length;
          const wantsEmpty = s.expect === 'empty';
          const detail = { items: items.length, matching };
          if (wantsEmpty) return { holds: items.length === 0, detail: items.length === 0 ? detail : { ...detail, negative: 'a non-empty result where emptiness was asked' } };
          if (items.length === 0) return { holds: false, detail: { ...detail, negative: 'an explicitly empty result' } };
          if (matching > 0) return { holds: true, detail };
          lastSeen = `${items.length} results, none matching`;
          return undefined;
        }
      }
    }, () => lastSeen);
    if (sem instanceof Stop) return (move('fail', { reason: sem.reason }), done());
    if (!sem.holds) return (move('fail', { reason: `negative state: ${JSON.stringify(sem.detail)}`, ...sem.detail }), done());
    move('check-semantics', sem.detail);

    // 7. the independent re-read
    if (contract.reread) {
      const reread = contract.reread;
      lastSeen = 'no read completed';
      const r = await until('missing read-back: the re-read did not confirm the committed state', async () => {
        const value = await readOrNote(() => reread.read(ctx()));
        if (value === noValue) return undefined;
        if (reread.holds(value)) return { value: preview(value) };
        lastSeen = preview(value);
        return undefined;
      }, () => lastSeen);
      if (r instanceof Stop) return (move('fail', { reason: r.reason }), done());
      move('re-read', { declared: true, ...r });
    } else move('re-read', { declared: false });

    if (interruption) return (move('fail', { reason: interruption }), done());
    move('close');
    return done();

    /** A read that throws is retried until the deadline; its error is what was last seen. */
    async function readOrNote<T>(read: () => Promise<T>): Promise<T | typeof noValue> {
      try {
        return await read();
      } catch (error) {
        if (interruption) throw error;
        lastSeen = `the read threw: ${(error as Error)?.message ?? String(error)}`;
        return noValue;
      }
    }
  }

  return {
    verify,
    note: push,
    detach() {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onFinished);
      page.off('requestfailed', onFailed);
      page.off('close', onClose);
      page.off('crash', onCrash);
      page.off('framenavigated', onNavigated);
    },
  };
}

const noValue: unique symbol = Symbol('no value');

function safeUrl(page: Page): string | null {
  try {
    return page.url();
  } catch {
    return null;
  }
}

function preview(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
