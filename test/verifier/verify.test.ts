// The live verifier on the controlled app, in real Chromium (CDP underneath) and real Firefox
// (WebDriver BiDi underneath), through Playwright's public events alone: each scenario family
// closes exactly when the app committed and the server persisted; a read-back confirms the
// persisted record; a closed page, a navigation away and an action that never returns fail with a
// reason instead of hanging.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserNames, launchBrowser, type LaunchedBrowser } from '../../pipeline/browser/launch.ts';
import { sendJson, startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { evidenceApp } from '../../fixtures/evidence/app.ts';
import { generateTasks, type EvidenceTask } from '../../fixtures/evidence/tasks.ts';
import { liveContract } from '../../fixtures/evidence/contract.ts';
import { attach, type VerifyResult } from '../../verifier/src/index.ts';

const one = (scenario: string, delay = 50) => generateTasks().find((t) => t.scenario === scenario && t.rep === 0 && t.delay_ms === delay)!;

/** The app for a task, plus a read endpoint for the test's read-back (the server's authoritative records). */
function load(server: FixtureServer, task: EvidenceTask) {
  const app = evidenceApp(task);
  server.load({ ...app, routes: { ...app.routes, 'GET /test/records': (_req, res) => sendJson(res, 200, app.stateAt()) } });
  return app;
}

async function openApp(launched: LaunchedBrowser, server: FixtureServer, task: EvidenceTask) {
  load(server, task);
  const context = await launched.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.origin}/`);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 10_000 });
  return { context, page };
}

const reread = (origin: string) => ({
  read: async ({ request }: { request: Page['request'] }) => (await request.get(`${origin}/test/records`)).json(),
  holds: (v: unknown) => Array.isArray((v as { records?: unknown }).records) && (v as { records: unknown[] }).records.length === 1,
});

const states = (r: VerifyResult) => r.transitions.map((t) => t.to);

for (const name of browserNames) {
  test(`the verifier closes exactly the committed saves, and fails closed on the rest (${name})`, async (t) => {
    const launched = await launchBrowser(name);
    const server = await startFixtureServer();
    t.after(async () => { await launched.browser.close(); await server.close(); });
    const scenarios = name === 'chromium'
      ? ['success', 'http-5xx', 'semantic-rejected', 'semantic-empty', 'aborted', 'redirect', 'background', 'streamed']
      : ['success', 'http-5xx', 'semantic-rejected', 'redirect'];
    for (const scenario of scenarios) {
      const task = one(scenario);
      const { context, page } = await openApp(launched, server, task);
      try {
        const verifier = attach(page);
        const record = await verifier.verify(liveContract(page, task.target, { reread: reread(server.origin) }));
        verifier.detach();
        const persisted = (server.stateAt() as { records: string[] }).records.length > 0;
        assert.equal(record.state === 'closed', task.truth === 'success', `${scenario}: ${record.state} (${record.reason})`);
        assert.equal(record.state === 'closed', persisted, `${scenario}: closed iff the server persisted`);
        if (record.state === 'closed') {
          assert.deepEqual(states(record), ['dispatched', 'ui-observed', 'correlated', 'transport-resolved', 'semantic-checked', 're-read', 'closed']);
          assert.equal(record.transitions.find((x) => x.to === 're-read')!.detail.declared, true);
        } else {
          assert.equal(record.state, 'failed', `${scenario}: ${record.reason}`);
          assert.ok(record.reason && record.reason.length > 0);
        }
        const times = record.transitions.map((x) => x.t_ms);
        assert.deepEqual(times, [...times].sort((a, b) => a - b), 'one clock, never going back');
        assert.equal(record.transitions.find((x) => x.to === 'ui-observed')?.detail.text !== undefined || record.state !== 'closed', true);
      } finally {
        await context.close();
        server.reset();
      }
    }
  });
}

test('a closed page, a navigation away, a hung action and a missing read-back each fail with a reason (chromium)', async (t) => {
  const launched = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await launched.browser.close(); await server.close(); });
  const task = one('success', 250); // the save answers after 250 ms: time to interrupt it

  const cases: [string, (page: Page) => Parameters<typeof liveContract>[2], (page: Page) => Promise<unknown> | undefined, RegExp][] = [
    ['closed', () => ({}), (page) => page.close(), /the page closed during the action/],
    ['navigated', () => ({}), (page) => page.evaluate(() => { location.assign('/app.js'); }), /navigated away to .*\/app\.js/],
    ['missing read-back', () => ({ timeoutMs: 1500, reread: { read: async () => ({ records: [] }), holds: () => false } }), () => undefined, /^timeout: missing read-back/],
  ];
  for (const [label, options, interrupt, reason] of cases) {
    const { context, page } = await openApp(launched, server, task);
    try {
      const verifier = attach(page);
      const contract = liveContract(page, task.target, options(page));
      const running = verifier.verify({ ...contract, action: async () => { await page.click('#act'); setTimeout(() => { void interrupt(page)?.catch(() => undefined); }, 60); } });
      const record = await running;
      assert.equal(record.state, 'failed', label);
      assert.match(record.reason!, reason, label);
    } finally {
      await context.close();
      server.reset();
    }
  }

  const { context, page } = await openApp(launched, server, task);
  try {
    const record = await attach(page).verify({ ...liveContract(page, task.target, { timeoutMs: 400 }), action: () => new Promise(() => undefined) });
    assert.equal(record.state, 'failed');
    assert.match(record.reason!, /^timeout: the action did not return within 400 ms/);
    const unrelated = await attach(page).verify({ ...liveContract(page, { method: 'POST', path: '/api/elsewhere' }, { timeoutMs: 800 }) });
    assert.equal(unrelated.state, 'failed', 'a save to another path than the contract declares is not this action');
    assert.match(unrelated.reason!, /^timeout: no request POST \/api\/elsewhere was sent within 800 ms; last seen: POST /);
  } finally {
    await context.close();
    server.reset();
  }
});
