// One `layers` trace: load the condition into the fixture server, open a fresh browser context,
// signal that the agent begins, let the policy act, then score at the boundary — VTS from the
// server's persisted state, AS from the page's success indication — and return the row's fields.
//
// Where it is scored, and what is timing-sensitive, is decided by scoring.ts (pure functions of
// what this file records); the server's state is a commit log on this process's clock, so the
// state at the boundary is exact.
import { isDeepStrictEqual } from 'node:util';
import type { Browser } from 'playwright-core';
import type { FixtureServer } from '../../fixtures/server.ts';
import { now } from '../../fixtures/server.ts';
import { epochToProcess } from '../browser/clock.ts';
import { layersApps } from '../../fixtures/layers/index.ts';
import type { LayersTask } from '../../core/layers.ts';
import { Actor } from './policies/actor.ts';
import { uis } from './policies/ui.ts';
import { policyView, type LayersPolicy } from './policies/policy.ts';
import { boundaryOf, judge, type Observed, type Scoring } from './scoring.ts';
import type { LayersRow } from '../../core/contracts.ts';
import type { RowBody } from '../kernel/run.ts';

export type { Scoring } from './scoring.ts';

/** What one trace adds to its row: everything but the header and the unit's own names (condition, policy). */
export type LayersOutcome = Omit<RowBody<LayersRow>, 'condition_id' | 'policy'>;

/**
 * Runs in every document before its scripts: calls the binding when a success indication shows.
 * A string, not a function: tsx's name-keeping helpers do not exist inside the page.
 */
const watchPage = `
let revealed = false;
new MutationObserver(() => {
  const el = document.querySelector(${JSON.stringify('[role=status][data-state=success]')});
  if (el && el.checkVisibility()) window.__rsbSuccessShown(performance.timeOrigin + performance.now());
  // the app's surface replaces its "Loading…" line when it appears (the Access fault's moment)
  if (!revealed && document.getElementById('app') && !document.getElementById('loading')) {
    revealed = true;
    window.__rsbRevealed(performance.timeOrigin + performance.now());
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/** how long after the boundary a page's success report may still arrive */
const REPORT_GRACE_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const round1 = (x: number) => Math.round(x * 10) / 10;

export async function runLayersTrace(options: {
  browser: Browser;
  server: FixtureServer;
  task: LayersTask;
  policy: LayersPolicy;
  scoring: Scoring;
}): Promise<LayersOutcome> {
  const { browser, server, task, policy, scoring } = options;
  const app = layersApps[task.template](task);
  server.load(app);
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  try {
    // AS is "a success indication was shown by the boundary": the page reports the first time one
    // is visible (it may be gone later, e.g. after a reload to read the summary).
    // The page stamps the moment on the wall clock (epoch ms), mapped onto the one process clock
    // (pipeline/browser/clock.ts), as the evidence recorder maps Firefox's resource timing.
    let successShownAt: number | null = null;
    await context.exposeBinding('__rsbSuccessShown', (_source, epochMs: number) => {
      successShownAt ??= epochToProcess(epochMs);
    });
    let revealedAt: number | null = null;
    await context.exposeBinding('__rsbRevealed', (_source, epochMs: number) => {
      revealedAt ??= epochToProcess(epochMs);
    });
    await context.addInitScript({ content: watchPage });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`, { waitUntil: 'load' });
    // Playwright installs its selector engine on a page's first query (tens of ms); do that
    // before the agent begins, so that no policy's first look pays for it
    await page.locator('body').isVisible();
    // the Access fault's clock starts here (fixtures/layers/page.ts); a string, see watchPage
    await page.evaluate("dispatchEvent(new Event('rsb:agent-start'))");
    const actor = new Actor(page);
    const started_at = new Date().toISOString();
    const t0 = now();
    let error: string | null = null;
    try {
      await policy.run({ page, task: policyView(task), ui: uis[task.template], actor });
    } catch (e) {
      error = (e as Error).message.split('\n')[0] ?? String(e);
    }
    const tEnd = now();

    const observed = (): Observed => ({
      scoring,
      t0,
      tEnd,
      saves: server.log.filter((r) => r.method === 'POST').map((r) => r.t),
      firstTargetSaveAt: app.store.firstTargetSaveAt,
      targetCommits: app.store.targetCommitTimes(),
      successShownAt,
      revealedAt,
      firstLookDone: actor.firstLookDone,
    });
    const boundary = boundaryOf(observed());
    // wait past the boundary so that a success stamped before it has time to arrive
    await sleep(boundary.at + REPORT_GRACE_MS - now());
    const judged = judge(observed(), boundary);
    const persistedValue = app.store.stateAt(boundary.at)[task.target.key];
    const vts = isDeepStrictEqual(persistedValue, task.target.value);
    return {
      template: task.template,
      layer: task.layer,
      severity: task.severity,
      started_at,
      elapsed_ms: round1(tEnd - t0),
      apparent_success: judged.apparentSuccess,
      vts,
      false_completion: judged.apparentSuccess && !vts,
      actions: actor.actions,
      retries: actor.retries,
      horizon_ms: boundary.horizonMs,
      persisted: { key: task.target.key, value: persistedValue },
      target: { ...structuredClone(task.target) },
      timing_margin_ms: judged.marginMs === null ? null : round1(judged.marginMs),
      timing_sensitive: judged.timingSensitive,
      boundary: boundary.setBy,
      error,
    };
  } finally {
    await context.close();
    server.reset();
  }
}
