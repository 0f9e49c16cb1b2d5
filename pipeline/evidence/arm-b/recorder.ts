// Records one Arm B trial: a navigation in a fresh browser context, observed only through
// Playwright's engine-neutral events (request, response, requestfinished, requestfailed,
// domcontentloaded, load) and title/body samples taken with page.evaluate every 200 ms from
// domcontentloaded. The same code runs in Firefox (WebDriver BiDi) and Chromium (CDP).
//
// Times are on the one process clock of pipeline/browser/clock.ts, relative to the dispatch. The
// network events keep the names prereg/evidence-arm-b.md registered (Playwright's `requestfinished`,
// `requestfailed`); the controlled arm's recorder folds the same Playwright events into `finished`
// and `failed` (prereg/evidence-arm-a.md). Renaming them here would change a registered protocol.
//
// The guard: every request of the context goes through a route that aborts anything but a GET
// to the manifest's origin before it is sent, and records the refusal.
import { processNow } from '../../browser/clock.ts';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import type { TimelineEvent } from '../../../core/evidence/production.ts';
import { production } from '../../../core/evidence/production.ts';
import { refusal } from './manifest.ts';
import { firstLine } from '../../../core/errors.ts';
import { sha256 } from '../../../core/hash.ts';

export interface TrialOptions {
  url: string;
  origin: string;
  /** how long to keep sampling after domcontentloaded */
  windowMs?: number;
  boundMs?: number;
  sampleGapMs?: number;
  /** a logged-in session's cookies, set on the fresh context before the navigation (session.ts) */
  cookies?: Parameters<BrowserContext['addCookies']>[0];
}

export interface Trial { events: TimelineEvent[]; error: string | null; elapsed_ms: number }

export const defaultWindowMs = 6_000;

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

export async function recordTrial(browser: Browser, options: TrialOptions): Promise<Trial> {
  const windowMs = options.windowMs ?? defaultWindowMs;
  const boundMs = options.boundMs ?? production.navigationBoundMs;
  const gapMs = options.sampleGapMs ?? production.sampleGapMs;
  const events: TimelineEvent[] = [];
  let t0 = processNow();
  const t = () => Math.round((processNow() - t0) * 1000) / 1000;
  const push = (e: Omit<TimelineEvent, 't_ms'>) => events.push({ t_ms: t(), ...e } as TimelineEvent);

  const context = await browser.newContext({ serviceWorkers: 'block' });
  let error: string | null = null;
  try {
    if (options.cookies?.length) await context.addCookies(options.cookies);
    await context.route('**/*', async (route) => {
      const r = route.request();
      const refused = refusal(r.method(), r.url(), options.origin);
      if (refused) {
        push({ source: 'runner', type: 'refused', url: r.url(), detail: { method: r.method(), reason: refused } });
        await route.abort('blockedbyclient');
      } else {
        await route.continue();
      }
    });
    const page = await context.newPage();
    const ids = new WeakMap<Request, string>();
    let next = 0;
    const idOf = (r: Request) => {
      let id = ids.get(r);
      if (!id) ids.set(r, (id = `r${++next}`));
      return id;
    };
    page.on('request', (r) => {
      const from = r.redirectedFrom();
      push({
        source: 'network', type: 'request', request_id: idOf(r), url: r.url(),
        detail: { method: r.method(), resource_type: r.resourceType(), navigation: r.isNavigationRequest(), main_frame: r.frame() === page.mainFrame(), ...(from ? { redirected_from: idOf(from) } : {}) },
      });
    });
    page.on('response', (res) => push({ source: 'network', type: 'response', request_id: idOf(res.request()), url: res.url(), status: res.status() }));
    page.on('requestfinished', (r) => push({ source: 'network', type: 'requestfinished', request_id: idOf(r), url: r.url() }));
    page.on('requestfailed', (r) => push({ source: 'network', type: 'requestfailed', request_id: idOf(r), url: r.url(), detail: { error: r.failure()?.errorText ?? 'unknown' } }));
    let dcl: (() => void) | undefined;
    const dclSeen = new Promise<void>((resolve) => (dcl = resolve));
    page.on('domcontentloaded', () => { push({ source: 'dom', type: 'domcontentloaded' }); dcl?.(); });
    page.on('load', () => push({ source: 'dom', type: 'load' }));

    t0 = processNow();
    push({ source: 'runner', type: 'dispatch', url: options.url, detail: { url: options.url, window_ms: windowMs, sample_gap_ms: gapMs } });
    const navigation = page.goto(options.url, { waitUntil: 'commit', timeout: boundMs }).then(
      () => undefined,
      (e: Error) => { error = `navigation: ${firstLine(e)}`; push({ source: 'runner', type: 'error', detail: { message: error } }); },
    );
    const bound = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), Math.max(0, ms)));
    const reached = await Promise.race([dclSeen.then(() => 'dcl' as const), navigation.then(() => dclSeen).then(() => 'dcl' as const), bound(boundMs)]);
    await navigation;
    if (reached === 'dcl') {
      const start = t();
      let last = -Infinity;
      while (t() - start <= windowMs) {
        const wait = last + gapMs - t();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        try {
          const s = await page.evaluate(() => ({ title: document.title, text: document.body ? document.body.innerText : '' }));
          const text = normalize(s.text);
          const at = t();
          events.push({ t_ms: at, source: 'dom', type: 'title', detail: { title: s.title } });
          events.push({ t_ms: at, source: 'dom', type: 'body', detail: { sha256: sha256(text), chars: text.length } });
          last = at;
        } catch (e) {
          push({ source: 'runner', type: 'sample-error', detail: { message: firstLine(e) } });
          last = t();
        }
      }
    } else if (!error) {
      push({ source: 'runner', type: 'timeout', detail: { bound_ms: boundMs } });
    }
    push({ source: 'runner', type: 'window-end' });
  } finally {
    await context.close().catch(() => {});
  }
  events.sort((a, b) => a.t_ms - b.t_ms);
  return { events, error, elapsed_ms: t() };
}
