// One `layers` trace: load the condition into the fixture server, open the start page in a fresh
// browser context (or on the caller's stage), signal that the agent begins, let the agent act
// (any agent of pipeline/agents/contract.ts: a reference policy through policies/agent.ts, the
// pilot's interpreter, an outside process), then score at the boundary — VTS from the server's
// persisted state, AS from the page's success indication — and return the row's fields with what
// the agent returned.
//
// Where it is scored, and what is timing-sensitive, is decided by scoring.ts (pure functions of
// what this file records); the server's state is a commit log on this process's clock, so the
// state at the boundary is exact.
import { isDeepStrictEqual } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FixtureServer } from '../../fixtures/server.ts';
import type { LayersAppInstance } from '../../fixtures/layers/app.ts';
import { now } from '../../fixtures/server.ts';
import { epochToProcess } from '../browser/clock.ts';
import { layersApps } from '../../fixtures/layers/index.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { Agent, AgentResult, AgentSession } from '../agents/contract.ts';
import { verdictOf } from '../../core/verdict.ts';
import { boundaryOf, judge, speedSensitivity, type FlagRule, type Observed, type Scoring, type Timeline } from './scoring.ts';
import { pageWatch } from './watch.ts';
import { infrastructureError } from './infrastructure.ts';
import type { LayersRow } from '../../core/contracts.ts';
import type { RowBody, UnitPhases } from '../kernel/run.ts';
import { RStackError, firstLine } from '../../core/errors.ts';

export type { Scoring } from './scoring.ts';

/** What one trace adds to its row: everything but the header and the unit's own names (condition, policy). */
export type LayersOutcome = Omit<RowBody<LayersRow>, 'condition_id' | 'policy'>;

/** The two moments the page reports (watch.ts), as epoch ms. */
export interface PageMoments {
  successShown(epochMs: number): void;
  revealed(epochMs: number): void;
}

/**
 * Where a trace's start page is opened: instrumented with the watch (watch.ts) before any of its
 * scripts run, at the start URL, and open once its surface has rendered (unless the server holds
 * the surface back until the agent begins). Playwright's context is one stage (below); a Firefox
 * left to an outside agent is another (pipeline/agents/agent-browser.ts).
 */
export interface Stage {
  open(url: string, options: { surfaceHeld: boolean; moments: PageMoments }): Promise<{ startUrl: string; page?: Page }>;
  /** how long after the boundary a report stamped before it may still arrive (default REPORT_GRACE_MS) */
  reportGraceMs?: number;
}

/** The bindings the watch calls where a Playwright client installs it (here, and BrowserGym's context: pipeline/browsergym/). */
export const watchBindings = { successShown: '__rsbSuccessShown', revealed: '__rsbRevealed' } as const;

/** The watch as Playwright installs it: bindings the page calls, an init script in every document. */
export const bindingWatch = pageWatch({ successShown: (t) => `window.${watchBindings.successShown}(${t})`, revealed: (t) => `window.${watchBindings.revealed}(${t})` });

export function playwrightStage(context: BrowserContext): Stage {
  return {
    async open(url, { surfaceHeld, moments }) {
      await context.exposeBinding(watchBindings.successShown, (_source, epochMs: number) => moments.successShown(epochMs));
      await context.exposeBinding(watchBindings.revealed, (_source, epochMs: number) => moments.revealed(epochMs));
      await context.addInitScript({ content: bindingWatch });
      // a persistent context (an outside agent's browser) opens with one blank page: the start page
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(url, { waitUntil: 'load' });
      // the page fetches its surface, which may land just after load
      if (!surfaceHeld) await page.locator('#loading').waitFor({ state: 'detached', timeout: 10_000 });
      // Playwright installs its selector engine on a page's first query (tens of ms); do that
      // before the agent begins, so that no policy's first look pays for it
      await page.locator('body').isVisible();
      return { startUrl: page.url(), page };
    },
  };
}

/** What a small app's store held for a trace's target, read from its own record (its clock: ms after t0). */
export interface SmallStoreReads {
  /** the trace's t0 on the process clock (the HAR's entries are made relative to it) */
  t0: number;
  before: unknown;
  boundary: { at_ms: number; value: unknown };
  /** when the page first reported the success, or null (AS: at or before the boundary) */
  shownAtMs: number | null;
  /** the target's commits: none before the trace (the store starts from its seed), and those by the boundary */
  changes: { before: number; boundary: number };
}

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
  /** where the start page opens, owned by the caller (an outside agent's browser); else a fresh context of browser's */
  stage?: Stage;
  /** how outside agents reach that browser */
  endpoints?: AgentSession['endpoints'];
  /** which timing-sensitivity rule the protocol in force registers (protocol.ts: flagRuleInForce); amendment 5's by default */
  flagRule?: FlagRule;
  /** where the bench reads how long the trace's own protocol took (agent begins → boundary + grace) */
  phases?: UnitPhases;
  /** the transport arm: the row carries store_writes, the store's count of the target's commits by the boundary */
  countWrites?: boolean;
  /** the transport arm's version 2 (issue 51): what the store held, handed over with the trace's clock (ms after t0) before the app is reset */
  storeReads?: (reads: SmallStoreReads) => void;
}): Promise<LayersOutcome & { result: AgentResult }> {
  const { browser, server, task, agent, scoring } = options;
  const app = layersApps[task.template](task);
  server.load(app);
  const ownContext = options.stage ? undefined : await browser!.newContext({ viewport: { width: 900, height: 900 } });
  const stage = options.stage ?? playwrightStage(ownContext!);
  try {
    // AS is "a success indication was shown by the boundary": the page reports the first time one
    // is visible (it may be gone later, e.g. after a reload to read the summary).
    // The page stamps the moment on the wall clock (epoch ms), mapped onto the one process clock
    // (pipeline/browser/clock.ts), as the evidence recorder maps Firefox's resource timing.
    let successShownAt: number | null = null;
    let revealedAt: number | null = null;
    const moments: PageMoments = {
      successShown: (epochMs) => { successShownAt ??= epochToProcess(epochMs); },
      revealed: (epochMs) => { revealedAt ??= epochToProcess(epochMs); },
    };
    // the start page is open once its surface has rendered, unless the server holds it back until
    // the agent begins (Access)
    const { startUrl, page } = await stage.open(`${server.origin}/`, { surfaceHeld: task.faults.reveal_after_ms > 0, moments });
    // the Access fault's clock starts here: the harness tells the server, never the page
    app.agentBegins(now());
    const started_at = new Date().toISOString();
    const t0 = now();
    let result: AgentResult;
    try {
      result = await agent.run({ task: { instruction: task.instruction, start_url: startUrl }, page, endpoints: options.endpoints });
    } catch (e) {
      result = { claim: null, error: firstLine(e) };
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
    const speedRule = options.flagRule === 'speed';
    // amendment 7: a stall of the harness's own action is retried, not scored (infrastructure.ts)
    const stall = speedRule ? infrastructureError({ error: result.error, actionTimeout: result.moments?.actionTimeout ?? null, faults: task.faults }) : null;
    if (stall) throw new InfrastructureError(`${task.condition_id}: ${stall}`);
    const boundary = boundaryOf(observed());
    // wait past the boundary so that a success stamped before it has time to arrive
    await sleep(boundary.at + (stage.reportGraceMs ?? REPORT_GRACE_MS) - now());
    if (options.phases) options.phases.imposedMs = now() - t0;
    const judged = judge(observed(), boundary);
    const timeline = speedRule ? timelineOf(observed(), app, task, result) : null;
    const speed = timeline ? speedSensitivity(timeline) : null;
    const persistedValue = app.store.stateAt(boundary.at)[task.target.key];
    const vts = isDeepStrictEqual(persistedValue, task.target.value);
    if (options.storeReads) {
      const commits = app.store.targetCommits();
      const rel = (x: number) => Math.round((x - t0) * 1000) / 1000;
      options.storeReads({
        t0,
        before: app.store.initialTarget(),
        boundary: { at_ms: rel(boundary.at), value: persistedValue ?? null },
        shownAtMs: successShownAt === null ? null : rel(successShownAt),
        changes: { before: 0, boundary: commits.filter((c) => c.t <= boundary.at).length },
      });
    }
    return {
      template: task.template,
      layer: task.layer,
      severity: task.severity,
      started_at,
      elapsed_ms: round1(tEnd - t0),
      // a reference policy's row keeps no claim: its false completion is the page's
      ...verdictOf({ apparentSuccess: judged.apparentSuccess, vts, rule: 'page' }),
      actions: result.actions ?? null,
      retries: result.retries ?? null,
      horizon_ms: boundary.horizonMs,
      persisted: { key: task.target.key, value: persistedValue },
      target: { ...structuredClone(task.target) },
      timing_margin_ms: judged.marginMs === null ? null : round1(judged.marginMs),
      timing_sensitive: speed ? speed.timingSensitive : judged.timingSensitive,
      boundary: boundary.setBy,
      ...(timeline && speed ? { flag_rule: 'speed' as const, speed_witness: speed.witness, moments: momentsOf(timeline) } : {}),
      ...(options.countWrites ? { store_writes: app.store.targetCommits().filter((c) => c.t <= boundary.at).length } : {}),
      error: result.error,
      result,
    };
  } finally {
    await ownContext?.close();
    server.reset();
  }
}

/** A stall of the harness's own action (amendment 7): the run skeleton keeps the attempt and retries the unit. */
export class InfrastructureError extends RStackError {}

/** What amendment 7's rule reads, from what the trace recorded. */
function timelineOf(o: Observed, app: LayersAppInstance, task: LayersTask, result: AgentResult): Timeline {
  const m = result.moments;
  return {
    ...o,
    commits: app.store.targetCommits().map((c) => ({ at: c.t, saveAt: c.from, matches: isDeepStrictEqual(c.value, task.target.value) })),
    initialMatches: isDeepStrictEqual(app.store.initialTarget(), task.target.value),
    revealAfterMs: task.faults.reveal_after_ms,
    firstLookStartedAt: m?.firstLookStartedAt ?? null,
    firstLookSaw: m?.firstLookSaw ?? null,
    timedWaits: m?.timedWaits ?? [],
    successSeenAt: m?.successSeenAt ?? null,
    confirmedAt: m?.confirmedAt ?? null,
  };
}

/** The moments as a row keeps them: ms after the agent began, to the microsecond. */
function momentsOf(t: Timeline): NonNullable<LayersRow['moments']> {
  const rel = (x: number) => Math.round((x - t.t0) * 1000) / 1000;
  const relOrNull = (x: number | null) => (x === null ? null : rel(x));
  return {
    returned: rel(t.tEnd),
    saves: t.saves.map(rel),
    first_target_save: relOrNull(t.firstTargetSaveAt),
    commits: t.commits.map((c) => ({ at: rel(c.at), save: rel(c.saveAt), matches: c.matches })),
    initial_matches: t.initialMatches,
    reveal_after_ms: t.revealAfterMs,
    success_shown: relOrNull(t.successShownAt),
    success_seen: relOrNull(t.successSeenAt),
    confirmed: relOrNull(t.confirmedAt),
    revealed: relOrNull(t.revealedAt),
    look: t.firstLookDone === null || t.firstLookSaw === null ? null : { started: relOrNull(t.firstLookStartedAt), done: rel(t.firstLookDone), saw: t.firstLookSaw },
    timed_waits: t.timedWaits.map(([a, b]) => [rel(a), rel(b)]),
  };
}
