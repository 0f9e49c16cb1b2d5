// One trace of the real-applications arm:
//
//   app.reset() (the seeded database) ─▶ proxy.load(the family's fault spec, the layer, severity,
//   seed) ─▶ a fresh browser context through the proxy, holding the app's logged-in session and the
//   notice watch ─▶ the start page open ─▶ the agent begins (any agent of the contract) ─▶ it returns
//   ─▶ the boundary: REAL_APPS.boundaryMs (../scoring.ts) after the browser got the answer to the
//   last write, or the agent's return, whichever is later ─▶ at it, the family's postcondition query
//   on the app's database: VTS; the notice shown by then: AS ─▶ proxy.reset() (a write still held back never reaches the app;
//   one already on its way there is waited for, so that the next condition's restore comes after it)
//
// The app's database is the only truth; the proxy's log says what happened to each write, on this
// process's clock. A proxy that died or an app that went down is not the agent's outcome: the trace
// throws an InfrastructureError, which the run skeleton keeps in data/excluded/ and retries.
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LayersRealAppsTask, LayersRow, ProxyEvent, StoreReads } from '../../../core/contracts.ts';
import { firstLine, RStackError } from '../../../core/errors.ts';
import type { FaultProxy } from '../../../proxy/src/index.ts';
import type { FaultSpec } from '../../../proxy/src/index.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { readPostcondition, type FamilyCondition } from '../../../fixtures/real-app.ts';
import type { Agent, AgentResult, AgentSession } from '../../agents/contract.ts';
import { realAppBoundaryOf, realAppTimingSensitive, REAL_APPS, writesOf, type RealAppBoundary, type TraceMoments } from '../scoring.ts';
import { endedDone, falseAbandonment, verdictOf } from '../../../core/verdict.ts';
import type { RowBody, UnitPhases } from '../../kernel/run.ts';
import { epochToProcess } from '../../browser/clock.ts';
import { noticeWatch } from '../watch.ts';

export type RealAppOutcome = Omit<RowBody<LayersRow>, 'condition_id' | 'policy'>;

// The boundary, the timing rule and the verdict are the one scoring module's (../scoring.ts, REAL_APPS).
/** prereg/layers-real-apps-amendment-1.md names this constant here: it is REAL_APPS.heldNearReadMs in ../scoring.ts */
export const HELD_NEAR_READ_MS = REAL_APPS.heldNearReadMs;
/** how long the start page may take to have its controls */
const READY_TIMEOUT_MS = 20_000;
/** the start page's load under a transport fault (Playwright's own bound, 30 s, otherwise) */
export const START_LOAD_TRANSPORT_MS = 120_000;
/** how long after the boundary a notice stamped before it may still be reported */
const REPORT_GRACE_MS = 100;

/** The app or the proxy failed under the trace: the run skeleton keeps the attempt and retries the unit. */
export class InfrastructureError extends RStackError {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const now = () => performance.now();

/**
 * Version 2 (issue 51): the store read again this long after the agent's return, besides the read at
 * the boundary, so that a fixed-wait validator (WorkArena's pattern: read once, a fixed time after the
 * claim) is computed from the trace's files.
 */
export const LATER_READS_MS = [3000] as const;


/** How long the harness waits, after the agent returned, for its writes' answers and the document a redirect leads to. */
export const SETTLE_LIMIT_MS = 15_000;

/**
 * Waits until the boundary has passed with nothing of the last write still coming: no write of the
 * family still unanswered, and, when the last answer was a redirect, the document it leads to
 * loaded. Bounded by SETTLE_LIMIT_MS (what has not come by then is scored as absent).
 */
async function settledBoundary(moments: () => TraceMoments, log: () => readonly ProxyEvent[]): Promise<RealAppBoundary> {
  const deadline = now() + SETTLE_LIMIT_MS;
  for (;;) {
    const m = moments();
    const events = log();
    const unanswered = events.some((e) => e.write && (e.action === 'pass' || e.action === 'answered' || e.action === 'dropped') && e.answeredAt === undefined && e.error === undefined);
    const answered = events.filter((e) => e.write && e.answeredAt !== undefined).sort((a, b) => a.answeredAt! - b.answeredAt!);
    const last = answered.at(-1);
    const awaitingPage = last !== undefined && last.status !== null && last.status >= 300 && last.status < 400 && !m.loads.some((t) => t > last.answeredAt!);
    const boundary = realAppBoundaryOf(m);
    if (now() >= deadline || (!unanswered && !awaitingPage && boundary.at <= now())) return boundary;
    await sleep(unanswered || awaitingPage ? 20 : boundary.at - now());
  }
}

/**
 * What a trace needs of its worker: the browser that goes through the proxy (a fresh context of it
 * per trace), or a context the caller owns (an outside agent's browser, whose first page the agent
 * takes), the proxy, the condition's app.
 */
export interface RealAppStage {
  browser?: Browser;
  context?: BrowserContext;
  proxy: FaultProxy;
  app: RealApp;
}

/** Throws an InfrastructureError when the proxy or the app failed: what followed is not the agent's doing. */
async function assertUp(stage: RealAppStage, task: LayersRealAppsTask, during: string): Promise<void> {
  const failure = stage.proxy.failure;
  if (failure) throw new InfrastructureError(`${task.condition_id}: ${during}: the fault proxy failed: ${failure.message}`, { cause: failure });
  if (!(await stage.proxy.alive())) throw new InfrastructureError(`${task.condition_id}: ${during}: the fault proxy does not answer`);
  if (!(await stage.app.status())) throw new InfrastructureError(`${task.condition_id}: ${during}: ${stage.app.name} is down (${stage.app.origin})`);
}

/** A fresh context through the proxy, logged in, watched; the start page open. */
async function openStart(stage: RealAppStage, task: LayersRealAppsTask, report: { shown: (epochMs: number) => void; loaded: (epochMs: number) => void }): Promise<{ context: BrowserContext; page: Page; startUrl: string; own: boolean }> {
  const own = !stage.context;
  const context = stage.context ?? (await stage.browser!.newContext({ viewport: { width: 1280, height: 900 } }));
  try {
    await context.addCookies(await stage.app.session());
    await context.exposeBinding('__rsbSuccessShown', (_source: unknown, epochMs: number) => report.shown(epochMs));
    await context.exposeBinding('__rsbLoaded', (_source: unknown, epochMs: number) => report.loaded(epochMs));
    await context.addInitScript({ content: noticeWatch(task.notice, { successShown: (t) => `window.__rsbSuccessShown(${t})`, loaded: (t) => `window.__rsbLoaded(${t})` }) });
    // an outside agent's browser opens with one blank page: the start page, which it takes first
    const page = (own ? undefined : context.pages()[0]) ?? (await context.newPage());
    // under a transport fault the start page's load may take as long as the fault makes it (every
    // script of the block editor 3 s late is about 40 s): it is waited for up to START_LOAD_TRANSPORT_MS
    // (prereg/layers-transport-amendment-1.md), and a load that outlasts even that, once the fault has
    // fired, leaves the agent on the page as it stands, the fault's effect and not the harness's failure
    let loadOutlasted = false;
    try {
      await page.goto(stage.app.origin + task.start_path, { waitUntil: 'load', ...(task.transport ? { timeout: START_LOAD_TRANSPORT_MS } : {}) });
    } catch (error) {
      if (!(task.transport && error instanceof Error && error.name === 'TimeoutError' && stage.proxy.log.some((e) => e.transport))) throw error;
      loadOutlasted = true;
    }
    // an app that renders in the browser (the block editor) is ready once its controls exist:
    // attached, not visible, since the Access fault may be hiding the target. A start page that a
    // transport fault answered with an error (the document, or a script it needs), or whose load it
    // made outlast the bound, is the agent's to deal with: it is not waited for
    const faultedStart = loadOutlasted || stage.proxy.log.some((e) => e.transport?.effect === 'answer');
    const spec = task.spec as { target: { selector: string } };
    const input = task.input as { selector: string } | null;
    if (!faultedStart) {
      await page.locator(spec.target.selector).first().waitFor({ state: 'attached', timeout: READY_TIMEOUT_MS });
      if (input) await page.locator(input.selector).first().waitFor({ state: 'attached', timeout: READY_TIMEOUT_MS });
    }
    // Playwright's selector engine is installed on a page's first query: before the agent begins
    await page.locator('body').isVisible();
    return { context, page, startUrl: page.url(), own };
  } catch (error) {
    if (own) await context.close().catch(() => undefined);
    throw error;
  }
}

/** The app's count of changes to the condition's target now (arm transport), or null when the condition names none. */
async function readChanges(app: RealApp, task: LayersRealAppsTask): Promise<number | null> {
  if (!task.changes) return null;
  const fn = (app as unknown as Record<string, unknown>)[task.changes.query];
  if (typeof fn !== 'function') throw new RStackError(`${task.condition_id}: the ${app.name} app has no change count ${task.changes.query}`, { exitCode: 2 });
  const n = Number(await (fn as (...args: unknown[]) => Promise<unknown>).apply(app, task.changes.args));
  if (!Number.isInteger(n) || n < 0) throw new Error(`${task.changes.query}(${task.changes.args.join(', ')}) gave ${n}, not a count`);
  return n;
}

/** The condition's postcondition from the app's database now, as the string it is compared as. */
async function readStored(app: RealApp, task: LayersRealAppsTask): Promise<string | null> {
  const value = await readPostcondition(app, { family: task.family, postcondition: task.postcondition } as FamilyCondition);
  return value === null || value === undefined ? null : String(value);
}

export async function runRealAppTrace(options: {
  stage: RealAppStage;
  task: LayersRealAppsTask;
  agent: Agent;
  endpoints?: AgentSession['endpoints'];
  phases?: UnitPhases;
}): Promise<RealAppOutcome & { result: AgentResult }> {
  const { stage, task, agent } = options;
  const resetStarted = now();
  try {
    await stage.app.reset();
  } catch (cause) {
    throw new InfrastructureError(`${task.condition_id}: ${stage.app.name} could not be reset to its seeded state: ${firstLine(cause)}`, { cause });
  }
  const resetMs = now() - resetStarted;
  let changesAtStart: number | null;
  let storedAtStart: string | null;
  try {
    changesAtStart = await readChanges(stage.app, task);
    storedAtStart = await readStored(stage.app, task);
  } catch (cause) {
    throw new InfrastructureError(`${task.condition_id}: the change count could not be read: ${firstLine(cause)}`, { cause });
  }
  const proxied = task.fault_source === 'proxy';
  stage.proxy.load({
    spec: task.spec as unknown as FaultSpec, layer: proxied ? task.layer : 'baseline', severity: proxied ? (task.severity as 1 | 2 | 3) : 0, seed: `${task.seed}:${task.condition_id}`,
    ...(task.also ? { also: { layer: task.also.layer, severity: task.also.severity as 1 | 2 | 3 } } : {}),
    ...(task.transport ? { transport: { fault: task.transport.fault, severity: task.transport.severity as 1 | 2 | 3 } } : {}),
  });
  let successShownAt: number | null = null;
  const loads: number[] = [];
  let opened: Awaited<ReturnType<typeof openStart>> | undefined;
  try {
    try {
      opened = await openStart(stage, task, { shown: (epochMs) => { successShownAt ??= epochToProcess(epochMs); }, loaded: (epochMs) => { loads.push(epochToProcess(epochMs)); } });
    } catch (cause) {
      await assertUp(stage, task, 'opening the start page');
      throw new InfrastructureError(`${task.condition_id}: the start page did not open: ${firstLine(cause)}`, { cause });
    }
    const t0 = now();
    const started_at = new Date().toISOString();
    let result: AgentResult;
    try {
      result = await agent.run({ task: { instruction: task.instruction, start_url: opened.startUrl }, page: opened.page, endpoints: options.endpoints });
    } catch (e) {
      result = { claim: null, error: firstLine(e) };
    }
    const tEnd = now();
    // a dead proxy or app fails what the agent does: its outcome is not the agent's
    await assertUp(stage, task, 'while the agent acted');
    const moments = (): TraceMoments => ({ t0, tEnd, writes: writesOf(stage.proxy.log), successShownAt, loads: [...loads] });
    const boundary = await settledBoundary(moments, () => stage.proxy.log);
    const readAt = now();
    let persistedValue: string | null;
    let changesAtRead: number | null;
    try {
      persistedValue = await readStored(stage.app, task);
      changesAtRead = await readChanges(stage.app, task);
    } catch (cause) {
      throw new InfrastructureError(`${task.condition_id}: the postcondition query failed: ${firstLine(cause)}`, { cause });
    }
    const fired = stage.proxy.log.filter((e) => e.transport).map((e) => ({ t: e.t, match: e.transport!.match, n: e.transport!.n, effect: e.transport!.effect }));
    // let a notice stamped before the boundary arrive
    await sleep(boundary.at + REPORT_GRACE_MS - now());
    // version 2: the store again at fixed times after the claim (a fixed-wait validator's read)
    const later: StoreReads['later'] = [];
    if ((task.version ?? 1) >= 2) {
      for (const ms of LATER_READS_MS) {
        await sleep(tEnd + ms - now());
        const at = now();
        try {
          later.push({ after_return_ms: ms, at_ms: round3(at - t0), value: await readStored(stage.app, task) });
        } catch (cause) {
          throw new InfrastructureError(`${task.condition_id}: the store read ${ms} ms after the return failed: ${firstLine(cause)}`, { cause });
        }
      }
    }
    const har = await stage.proxy.takeHar();
    // the HAR's own clock (the proxy's, this process's) as the row's: ms after t0
    for (const entry of har?.log.entries ?? []) entry._t = round3(entry._t - t0);
    if (options.phases) options.phases.imposedMs = now() - t0;
    const m = moments();
    const apparentSuccess = m.successShownAt !== null && m.successShownAt <= boundary.at;
    const vts = persistedValue === task.target.value;
    // version 1 rows never kept a claim (a reference policy's ended_done was what it had seen);
    // from version 2 the policy's claim is kept, and ended_done is it (prereg/layers-real-apps*.md)
    const version = task.version ?? 1;
    const claimKept = version >= 2;
    const claimedDone = endedDone(claimKept ? result.claim : null, apparentSuccess, result.moments?.confirmedAt);
    // version 2 keeps both false completions, named apart; every version before it, the page's
    const verdict = verdictOf({ apparentSuccess, vts, ...(claimKept ? { claim: result.claim } : {}), rule: claimKept ? 'both' : 'claim-if-kept' });
    const rel = (x: number) => Math.round((x - t0) * 1000) / 1000;
    const relOrNull = (x: number | null) => (x === null ? null : rel(x));
    return {
      template: task.family as LayersRow['template'],
      app: task.app,
      layer: task.layer,
      severity: task.severity,
      variant: task.variant,
      fault_source: task.fault_source,
      started_at,
      elapsed_ms: round1(tEnd - t0),
      apparent_success: verdict.apparent_success,
      vts: verdict.vts,
      false_completion: verdict.false_completion,
      actions: result.actions ?? null,
      retries: result.retries ?? null,
      horizon_ms: REAL_APPS.boundaryMs,
      persisted: { key: task.target.key, value: persistedValue },
      target: { ...task.target },
      timing_margin_ms: null,
      timing_sensitive: realAppTimingSensitive(m, boundary, readAt, version),
      boundary: boundary.setBy,
      ...(task.arm === 'transport' ? {
        ...(task.transport ? { transport: { ...task.transport } } : {}),
        ...(task.also ? { also: { ...task.also } } : {}),
        ...(task.control ? { control: task.control } : {}),
        store_writes: changesAtStart === null || changesAtRead === null ? null : changesAtRead - changesAtStart,
        ended_done: claimedDone,
        false_abandonment: falseAbandonment(claimedDone, vts),
      } : {}),
      ...(claimKept ? {
        ...(task.arm === 'transport' ? {} : { ended_done: claimedDone, false_abandonment: falseAbandonment(claimedDone, vts) }),
        arm_version: version,
        claim: result.claim,
        claim_false_completion: verdict.claim_false_completion!,
      } : {}),
      real_app: {
        reset_ms: round1(resetMs),
        writes: m.writes.map((w) => ({ t: rel(w.t), action: w.action, status: w.status, reached_app: relOrNull(w.reachedApp), app_answered: relOrNull(w.appAnswered) })),
        success_shown: relOrNull(m.successShownAt),
        boundary_at: rel(boundary.at),
        read_at: rel(readAt),
        loads: m.loads.filter((t) => t >= t0).map(rel),
        returned: rel(tEnd),
        ...(task.arm === 'transport' ? { transport: fired.map((f) => ({ ...f, t: rel(f.t) })) } : {}),
      },
      error: result.error,
      result,
      files: [
        ...(har ? [{ name: 'trace.har', content: `${JSON.stringify(har)}\n` }] : []),
        {
          name: 'store.json',
          content: `${JSON.stringify({
            postcondition: task.target.key, target: task.target.value, before: storedAtStart,
            boundary: { at_ms: round3(readAt - t0), value: persistedValue }, later,
            changes: { before: changesAtStart, boundary: changesAtRead },
          } satisfies StoreReads)}\n`,
        },
      ],
    };
  } finally {
    if (opened?.own) await opened.context.close().catch(() => undefined);
    // waits for every write still on its way to the app (a State write forwarded just before): the
    // next condition restores the app after this, so nothing of this condition can land in it
    try {
      await stage.proxy.reset();
    } catch (cause) {
      throw new InfrastructureError(`${task.condition_id}: ${firstLine(cause)}`, { cause });
    }
  }
}
