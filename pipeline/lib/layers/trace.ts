// One `layers` trace: load the condition into the fixture server, open a fresh browser context,
// let the policy act, then score at the boundary — VTS from the server's persisted state, AS
// from the page's visible success indication — and return the row's study fields.
//
// Scoring boundary (prereg/layers.md):
//   main:    B ms after the later of the policy's return and the server's last response
//   horizon: h ms after the server received the one target action
// The server's state is a commit log on this process's clock, so the state at the boundary is
// exact; the margin to the nearest target commit says how close the outcome was to flipping.
import { isDeepStrictEqual } from 'node:util';
import type { Browser } from 'playwright-core';
import type { FixtureServer } from '../../../fixtures/server.ts';
import { now } from '../../../fixtures/server.ts';
import { layersApps } from '../../../fixtures/layers.ts';
import { policyView, type LayersTask } from '../../../fixtures/layers-task.ts';
import { Actor } from '../policies/layers/actor.ts';
import { uis, successIndication } from '../policies/layers/ui.ts';
import type { LayersPolicy } from '../policies/layers/policy.ts';

export type Scoring = { kind: 'after-policy'; boundaryMs: number } | { kind: 'after-action'; horizonMs: number };

/** |margin| below this is reported as timing-sensitive (declared in prereg/layers.md). */
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
  error: string | null;
}

/**
 * Runs in every document before its scripts: calls the binding when a success indication shows.
 * A string, not a function: tsx's name-keeping helpers do not exist inside the page.
 */
const watchSuccess = `
new MutationObserver(() => {
  const el = document.querySelector(${JSON.stringify('[role=status][data-state=success]')});
  if (el && el.checkVisibility()) window.__rsbSuccessShown();
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

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
    let successShownAt: number | null = null;
    await context.exposeBinding('__rsbSuccessShown', () => {
      successShownAt ??= now();
    });
    await context.addInitScript({ content: watchSuccess });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`, { waitUntil: 'load' });
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
    if (scoring.kind === 'after-policy') {
      const lastResponse = Math.max(0, ...server.log.map((r) => r.finishedAt ?? r.t));
      anchor = Math.max(tEnd, lastResponse);
      horizon = scoring.boundaryMs;
    } else {
      anchor = app.store.firstTargetSaveAt ?? tEnd;
      horizon = scoring.horizonMs;
    }
    const tScore = anchor + horizon;
    await sleep(tScore - now());
    // a success still on screen at the boundary counts even if the binding call is in flight
    const apparent = (successShownAt !== null && successShownAt <= tScore) || (await successIndication(page).first().isVisible());
    const persistedValue = app.store.stateAt(tScore)[task.target.key];
    const vts = isDeepStrictEqual(persistedValue, task.target.value);
    const commits = app.store.targetCommitTimes();
    const margin = commits.length ? commits.map((c) => tScore - c).reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a)) : null;
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
      timing_sensitive: margin !== null && Math.abs(margin) < TIMING_SENSITIVE_MS,
      error,
    };
  } finally {
    await context.close();
    server.reset();
  }
}
