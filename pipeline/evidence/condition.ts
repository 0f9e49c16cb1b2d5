// One condition of the evidence matrix, in one browser:
//   1. load the task's app into the fixture server;     (fixtures/evidence/app.ts)
//   2. a fresh context with the DOM probe, a page, the browser's network driver;
//   3. open the page and wait until the app says it is ready (service worker, cache prewarm);
//   4. click the action: t = 0 is that click as the page saw it;
//   5. wait out the observation window (the horizon) and a little slack for late deliveries;
//   6. collect one timeline (page, network, server log on the process clock), score the policies.
// Produces one trace row; the policies see only the events and the target contract.
import type { LaunchedBrowser } from '../browser/launch.ts';
import { installProbe, startRecorder } from '../browser/recorder.ts';
import { evidenceApp, type ServerEvent } from '../../fixtures/evidence/app.ts';
import type { EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import type { FixtureServer } from '../../fixtures/server.ts';
import { verdictsOf } from '../../verifier/src/policies.ts';
import type { EvidenceRow } from '../../analysis/rows.ts';
import type { RowBody, UnitPhases } from '../kernel/run.ts';
import type { EvidenceEvent } from '../../verifier/src/events.ts';
import { processNow } from '../browser/clock.ts';

/** The policy-set name every evidence row carries in its `policy` field (the verdicts hold each policy). */
export const policySet = 'evidence-policies/1';

/** Time after the horizon we keep listening, for events the browser delivers late. */
export const slackMs = 150;

export function serverEvents(log: readonly ServerEvent[]): EvidenceEvent[] {
  return log.map((e) => ({
    t_ms: e.t,
    source: 'server' as const,
    type: e.type,
    url: e.path,
    ...(e.status !== undefined && e.type !== 'received' ? { status: e.status } : {}),
    detail: { method: e.method },
  }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records one condition's timeline (without scoring it): the browser layer's whole job. */
export async function recordCondition(launched: LaunchedBrowser, server: FixtureServer, task: EvidenceTask, phases?: UnitPhases): Promise<EvidenceEvent[]> {
  const app = evidenceApp(task);
  server.load(app);
  const context = await launched.browser.newContext();
  try {
    await installProbe(context);
    const page = await context.newPage();
    const recorder = await startRecorder(page, launched.name);
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 10_000 });
    const beforeAction = processNow();
    const { origin } = await recorder.dispatch(() => page.click('#act'));
    await sleep(Math.max(0, origin + task.horizon_ms + slackMs - processNow()));
    // the bench's "imposed" time: the action and the observation window (horizon + slack)
    if (phases) phases.imposedMs = processNow() - beforeAction;
    // the action's identity and target contract are declared on its dispatch (the policies read them there)
    const dispatchDetail = { condition_id: task.condition_id, target: task.target };
    return await recorder.timeline({ horizonMs: task.horizon_ms, extra: serverEvents(app.events), dispatchDetail });
  } finally {
    await context.close().catch(() => undefined);
    server.reset();
  }
}

/** One unrecorded load of the app, so the first recorded condition does not pay the browser's cold start. */
export async function warmUp(launched: LaunchedBrowser, server: FixtureServer, task: EvidenceTask): Promise<void> {
  server.load(evidenceApp(task));
  const context = await launched.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 10_000 });
  } finally {
    await context.close().catch(() => undefined);
    server.reset();
  }
}

/** One condition as the body of its trace row (the run skeleton adds the header). */
export async function runCondition(launched: LaunchedBrowser, server: FixtureServer, task: EvidenceTask, phases?: UnitPhases): Promise<RowBody<EvidenceRow>> {
  const startedAt = new Date();
  const started = processNow();
  const events = await recordCondition(launched, server, task, phases);
  return {
    condition_id: task.condition_id,
    policy: policySet,
    started_at: startedAt.toISOString(),
    elapsed_ms: Math.round(processNow() - started),
    scenario: task.scenario,
    delay_ms: task.delay_ms,
    rep: task.rep,
    truth: task.truth,
    events,
    verdicts: verdictsOf(events),
    error: null,
  };
}
