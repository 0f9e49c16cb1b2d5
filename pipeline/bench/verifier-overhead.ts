// The verifier's cost per action (issue 24, item 7): the controlled app's save, in Chromium, timed
// three ways on the same fixture, in rotating order per repetition so the machine's noise hits all alike:
//
//   bare       click Save, then wait for the state an agent has to wait for anyway: the app's
//              committed (or rejected) root element, checked in the page on every animation frame
//   verified   the same click under the verifier (fixtures/evidence/contract.ts, no re-read):
//              dispatch, UI, correlation, transport, the same DOM predicate, close
//   reread     verified plus the independent re-read (an HTTP read of the server's records)
//   retry      reread under the retry pattern (verifier/src/retry.ts, issue 37), which closes at the
//              first attempt here; after it, one read of the store as the pattern makes it before a
//              repeat (`check`): what a failed attempt costs on top of its settle wait
//
// Each action gets a fresh page and a fresh app (not timed). The overhead of a repetition is its
// verified time minus its bare time; the results give median and p95 of each series and of the
// overheads, in ms. A verified action that does not close is counted (it would be a false reject).
// Reads: fixtures only. Writes: nothing (the numbers go into bench/results.json).
import { performance } from 'node:perf_hooks';
import type { BrowserContext, Page } from 'playwright-core';
import { executablePath, launchBrowser, launchOptions } from '../browser/launch.ts';
import { chromium } from 'playwright-core';
import { sendJson, startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { evidenceApp } from '../../fixtures/evidence/app.ts';
import { generateTasks, type EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import { liveContract } from '../../fixtures/evidence/contract.ts';
import { attach, storeRead, verifyWithRetry } from '../../verifier/src/index.ts';

export interface Series { n: number; median_ms: number | null; p95_ms: number | null }

export interface VerifierOverhead {
  fixture: string;
  browser: { name: 'chromium'; version: string; executable: string };
  actions: number;
  bare: Series;
  verified: Series;
  reread: Series;
  /** reread under the retry pattern (closed at its first attempt) */
  retry: Series;
  /** one read of the store, as the retry pattern makes it before acting again */
  check: Series;
  /** per repetition: verified − bare, reread − bare, retry − bare */
  overhead: Series;
  overhead_reread: Series;
  overhead_retry: Series;
  /** verified actions that did not close (each is a false reject on a success) */
  not_closed: number;
}

/** The value at or below which p of the values lie (nearest rank), rounded to µs. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return Math.round(sorted[rank - 1]! * 1000) / 1000;
}

const series = (values: number[]): Series => ({ n: values.length, median_ms: percentile(values, 50), p95_ms: percentile(values, 95) });

type Variant = 'bare' | 'verified' | 'reread' | 'retry';
const rotations: Variant[][] = [['bare', 'verified', 'reread', 'retry'], ['verified', 'reread', 'retry', 'bare'], ['reread', 'retry', 'bare', 'verified'], ['retry', 'bare', 'verified', 'reread']];

async function freshPage(page: Page | null, context: BrowserContext, server: FixtureServer, task: EvidenceTask) {
  await page?.close();
  const app = evidenceApp(task);
  server.load({ ...app, routes: { ...app.routes, 'GET /bench/records': (_req, res) => sendJson(res, 200, app.stateAt()) } });
  const next = await context.newPage();
  await next.goto(`${server.origin}/`);
  await next.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 10_000 });
  return next;
}

export async function measureVerifierOverhead(options: { actions: number; chromium?: string }): Promise<VerifierOverhead> {
  const task = generateTasks().find((t) => t.scenario === 'success' && t.delay_ms === 50 && t.rep === 0)!;
  const launched = options.chromium
    ? { name: 'chromium' as const, browser: await chromium.launch({ ...launchOptions('chromium'), executablePath: options.chromium }) }
    : await launchBrowser('chromium', null);
  const executable = options.chromium ?? executablePath('chromium');
  const server = await startFixtureServer();
  const times: Record<Variant | 'check', number[]> = { bare: [], verified: [], reread: [], retry: [], check: [] };
  let notClosed = 0;
  try {
    const context = await launched.browser.newContext();
    let page: Page | null = null;
    for (let rep = 0; rep < options.actions; rep++) {
      for (const variant of rotations[rep % rotations.length]!) {
        page = await freshPage(page, context, server, task);
        const p = page;
        if (variant === 'bare') {
          const start = performance.now();
          await p.click('#act');
          // checked in the page on every animation frame: Playwright's quickest wait (waitForSelector
          // backs off to 100 and 500 ms between checks, which would charge the bare action for its waits)
          await p.waitForFunction(() => ['committed', 'rejected'].includes(document.documentElement.dataset.appState ?? ''), undefined, { polling: 'raf', timeout: 10_000 });
          times.bare.push(performance.now() - start);
        } else {
          const verifier = attach(p);
          const reread = variant === 'reread' || variant === 'retry'
            ? { read: async () => (await p.request.get(`${server.origin}/bench/records`)).json(), holds: (v: unknown) => ((v as { records?: unknown[] }).records ?? []).length > 0 }
            : undefined;
          const contract = liveContract(p, task.target, reread ? { reread } : {});
          const start = performance.now();
          const state = variant === 'retry'
            ? (await verifyWithRetry(verifier, p, contract, { attempts: 3 })).state
            : (await verifier.verify(contract)).state;
          times[variant].push(performance.now() - start);
          verifier.detach();
          if (state !== 'closed') notClosed++;
          if (variant === 'retry') {
            const check = storeRead(contract)!;
            const at = performance.now();
            await check({ page: p, request: p.request, timeline: [] });
            times.check.push(performance.now() - at);
          }
        }
      }
    }
    await context.close();
    const diff = (a: number[]) => a.map((v, i) => v - times.bare[i]!);
    return {
      fixture: `evidence controlled app, ${task.condition_id} (the save answers after ${task.delay_ms} ms)`,
      browser: { name: 'chromium', version: launched.browser.version(), executable },
      actions: options.actions,
      bare: series(times.bare),
      verified: series(times.verified),
      reread: series(times.reread),
      retry: series(times.retry),
      check: series(times.check),
      overhead: series(diff(times.verified)),
      overhead_reread: series(diff(times.reread)),
      overhead_retry: series(diff(times.retry)),
      not_closed: notClosed,
    };
  } finally {
    await launched.browser.close();
    await server.close();
  }
}
