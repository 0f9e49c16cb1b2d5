// One `layers` trace: load the condition into the fixture server, open a fresh browser context,
// signal that the agent begins, let the policy act, then score at the boundary — VTS from the
// server's persisted state, AS from the page's success indication — and return the row's fields.
//
// Scoring boundary (prereg/layers.md as amended by prereg/layers-amendment-1.md and -2.md):
//   main:    B ms after the server received the policy's last save, or the policy's return,
//            whichever is later
//   horizon: h ms after the server received the one target save
// The server's state is a commit log on this process's clock, so the state at the boundary is
// exact. A trace is timing-sensitive when an outcome could flip with the browser's or the
// policy's speed: the success indication showed within 25 ms of the boundary; the boundary was
// set by the policy's return and the nearest target commit lies within 25 ms of it; or a policy
// that looks once without waiting got its answer later than 25 ms before a late surface appeared;
// or the boundary was set by the policy's return and a target commit landed between the
// save-anchored boundary and that return (prereg/layers-amendment-5.md).
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext } from 'playwright-core';
import type { FixtureServer } from '../../../fixtures/server.ts';
import { now } from '../../../fixtures/server.ts';
import { performance } from 'node:perf_hooks';
import { layersApps } from '../../../fixtures/layers.ts';
import { policyView, type LayersTask } from '../../../fixtures/layers-task.ts';
import { Actor } from '../policies/layers/actor.ts';
import { uis } from '../policies/layers/ui.ts';
import type { LayersPolicy } from '../policies/layers/policy.ts';

export type Scoring = { kind: 'after-policy'; boundaryMs: number } | { kind: 'after-action'; horizonMs: number };

/** Within this many ms of the boundary an outcome is reported as timing-sensitive (prereg/layers-amendment-1.md). */
export const TIMING_SENSITIVE_MS = 25;

export interface LayersOutcome {
  template: LayersTask['template'];
  layer: LayersTask['layer'];
  severity: number;
  started_at: string;
  elapsed_ms: number;
  apparent_success: boolean;
  vts: boolean;
  false_completion: boolean;
  actions: number;
  retries: number;
  horizon_ms: number;
  persisted: { key: string; value: unknown };
  target: { key: string; value: unknown };
  timing_margin_ms: number | null;
  timing_sensitive: boolean;
  /** what set the boundary: the last save (main), the policy's return (main, slow policy), or the one action (horizon) */
  boundary: 'save' | 'return' | 'action';
  error: string | null;
}

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
  browser?: Browser;
  server: FixtureServer;
  task: LayersTask;
  policy: LayersPolicy;
  scoring: Scoring;
  /** a fresh context the caller owns and closes (an outside agent's browser); else one of browser's */
  context?: BrowserContext;
}): Promise<LayersOutcome> {
  const { browser, server, task, policy, scoring } = options;
  const app = layersApps[task.template](task);
  server.load(app);
  const context = options.context ?? (await browser!.newContext({ viewport: { width: 900, height: 900 } }));
  try {
    // AS is "a success indication was shown by the boundary": the page reports the first time one
    // is visible (it may be gone later, e.g. after a reload to read the summary).
    // The page stamps the moment on its own clock (epoch ms); mapped onto this process's clock.
    let successShownAt: number | null = null;
    await context.exposeBinding('__rsbSuccessShown', (_source, epochMs: number) => {
      successShownAt ??= epochMs - performance.timeOrigin;
    });
    let revealedAt: number | null = null;
    await context.exposeBinding('__rsbRevealed', (_source, epochMs: number) => {
      revealedAt ??= epochMs - performance.timeOrigin;
    });
    await context.addInitScript({ content: watchPage });
    // a persistent context (an outside agent's browser) opens with one blank page: the start page
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${server.origin}/`, { waitUntil: 'load' });
    // the start page is open once its surface has rendered, unless the server holds it back until
    // the agent begins (Access): the page fetches its surface, which may land just after load
    if (!(task.faults.reveal_after_ms > 0)) await page.locator('#loading').waitFor({ state: 'detached', timeout: 10_000 });
    // Playwright installs its selector engine on a page's first query (tens of ms); do that
    // before the agent begins, so that no policy's first look pays for it
    await page.locator('body').isVisible();
    // the Access fault's clock starts here: the harness tells the server, never the page
    app.agentBegins(now());
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

    let anchor: number;
    let horizon: number;
    let anchoredByPolicy = false;
    let lastSaveReceived: number | null = null;
    if (scoring.kind === 'after-policy') {
      // the saves the server took: an ignored one (Action) is an activation that did nothing
      const saves = app.store.savesReceived;
      lastSaveReceived = saves.length ? Math.max(...saves) : null;
      horizon = scoring.boundaryMs;
      anchoredByPolicy = lastSaveReceived === null || tEnd > lastSaveReceived + horizon;
      anchor = anchoredByPolicy ? tEnd - horizon : lastSaveReceived!;
    } else {
      anchor = app.store.firstTargetSaveAt ?? tEnd;
      horizon = scoring.horizonMs;
    }
    const tScore = anchor + horizon;
    // wait past the boundary so that a success stamped before it has time to arrive
    await sleep(tScore + REPORT_GRACE_MS - now());
    const apparent = successShownAt !== null && successShownAt <= tScore;
    const persistedValue = app.store.stateAt(tScore)[task.target.key];
    const vts = isDeepStrictEqual(persistedValue, task.target.value);
    const commits = app.store.targetCommitTimes();
    const margin = commits.length ? commits.map((c) => tScore - c).reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a)) : null;
    const shownMargin = successShownAt === null ? null : tScore - successShownAt;
    // a policy that looked once, without waiting, saw a surface that appeared after the agent
    // began only because its look came late: its outcome follows its own speed
    const lookedLate = revealedAt !== null && revealedAt > t0 && actor.firstLookDone !== null && actor.firstLookDone >= revealedAt - TIMING_SENSITIVE_MS;
    // scored at the policy's return (it came more than B after its last save): a target commit
    // between the save-anchored boundary and that return landed only because the policy was slow
    const landedWhileSlow =
      anchoredByPolicy && lastSaveReceived !== null && commits.some((c) => c >= lastSaveReceived + horizon - TIMING_SENSITIVE_MS && c <= tScore + TIMING_SENSITIVE_MS);
    const sensitive =
      lookedLate ||
      landedWhileSlow ||
      (shownMargin !== null && Math.abs(shownMargin) < TIMING_SENSITIVE_MS) ||
      (margin !== null && Math.abs(margin) < TIMING_SENSITIVE_MS && (anchoredByPolicy || scoring.kind === 'after-action' && app.store.firstTargetSaveAt === null));
    return {
      template: task.template,
      layer: task.layer,
      severity: task.severity,
      started_at,
      elapsed_ms: round1(tEnd - t0),
      apparent_success: apparent,
      vts,
      false_completion: apparent && !vts,
      actions: actor.actions,
      retries: actor.retries,
      horizon_ms: horizon,
      persisted: { key: task.target.key, value: persistedValue },
      target: structuredClone(task.target),
      timing_margin_ms: margin === null ? null : round1(margin),
      timing_sensitive: sensitive,
      boundary: scoring.kind === 'after-action' ? 'action' : anchoredByPolicy ? 'return' : 'save',
      error,
    };
  } finally {
    if (!options.context) await context.close();
    server.reset();
  }
}
