// One `layers` trace: load the condition into the fixture server, open a fresh browser context,
// signal that the agent begins, let the agent act (any agent of pipeline/agents/contract.ts: a
// reference policy through policies/agent.ts, the pilot's interpreter, an outside process), then
// score at the boundary — VTS from the server's persisted state, AS from the page's success
// indication — and return the row's fields with what the agent returned.
//
// Where it is scored, and what is timing-sensitive, is decided by scoring.ts (pure functions of
// what this file records); the server's state is a commit log on this process's clock, so the
// state at the boundary is exact.
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext } from 'playwright-core';
import type { FixtureServer } from '../../fixtures/server.ts';
import { now } from '../../fixtures/server.ts';
import { epochToProcess } from '../browser/clock.ts';
import { layersApps } from '../../fixtures/layers/index.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { Agent, AgentResult, AgentSession } from '../agents/contract.ts';
import { boundaryOf, judge, type Observed, type Scoring } from './scoring.ts';
import type { LayersRow } from '../../core/contracts.ts';
import type { RowBody, UnitPhases } from '../kernel/run.ts';

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
  browser?: Browser;
  server: FixtureServer;
  task: LayersTask;
  agent: Agent;
  scoring: Scoring;
  /** a fresh context the caller owns and closes (an outside agent's browser); else one of browser's */
  context?: BrowserContext;
  /** how outside agents reach that browser */
  endpoints?: AgentSession['endpoints'];
  /** where the bench reads how long the trace's own protocol took (agent begins → boundary + grace) */
  phases?: UnitPhases;
}): Promise<LayersOutcome & { result: AgentResult }> {
  const { browser, server, task, agent, scoring } = options;
  const app = layersApps[task.template](task);
  server.load(app);
  const context = options.context ?? (await browser!.newContext({ viewport: { width: 900, height: 900 } }));
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
    const started_at = new Date().toISOString();
    const t0 = now();
    let result: AgentResult;
    try {
      result = await agent.run({ task: { instruction: task.instruction, start_url: page.url() }, page, endpoints: options.endpoints });
    } catch (e) {
      result = { claim: null, error: (e as Error).message.split('\n')[0] ?? String(e) };
    }
    const tEnd = now();

    const observed = (): Observed => ({
      scoring,
      t0,
      tEnd,
      // the saves the server took: an ignored one (Action) is an activation that did nothing
      saves: [...app.store.savesReceived],
      firstTargetSaveAt: app.store.firstTargetSaveAt,
      targetCommits: app.store.targetCommitTimes(),
      successShownAt,
      revealedAt,
      firstLookDone: result.firstLookDone ?? null,
    });
    const boundary = boundaryOf(observed());
    // wait past the boundary so that a success stamped before it has time to arrive
    await sleep(boundary.at + REPORT_GRACE_MS - now());
    if (options.phases) options.phases.imposedMs = now() - t0;
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
      actions: result.actions ?? null,
      retries: result.retries ?? null,
      horizon_ms: boundary.horizonMs,
      persisted: { key: task.target.key, value: persistedValue },
      target: { ...structuredClone(task.target) },
      timing_margin_ms: judged.marginMs === null ? null : round1(judged.marginMs),
      timing_sensitive: judged.timingSensitive,
      boundary: boundary.setBy,
      error: result.error,
      result,
    };
  } finally {
    if (!options.context) await context.close();
    server.reset();
  }
}
