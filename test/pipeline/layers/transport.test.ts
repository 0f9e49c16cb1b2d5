// The transport arm for real (issue 37) on a real application: each transport fault at severity 1
// and each designed compound pair once, on WordPress's Settings › General title, in Chromium and in
// Firefox, through the fault proxy, scored by WordPress's database and counted by its change log.
// Each trace runs the semantic-recovery policy (it waits for the control and activates until the
// notice shows). What each fault is designed to do shows in the proxy's record of the trace and in
// the store, whatever the policy made of it:
//   document-error   the start page is an error page: the form is never there, nothing is written
//   write-error      the first write is answered with an error and never reaches WordPress
//   lost-response    the first write reaches WordPress, which stores it; its answer is lost
//   asset-error      the page's first scripts and stylesheets fail; the form is still there
//   popup            a pop-up covers the first document
//   compound pairs   both parts in the record: a held or dropped write, a failed or lost one
// and on every row the store's count agrees with the database (the title changed once, or not at
// all), and false abandonment is what its definition says.
// WordPress runs on this test's own port and state folder, started from nothing and stopped after.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { startFaultProxy, transportPlanFor, type FaultProxy } from '../../../proxy/src/index.ts';
import { layerTableOf } from '../../../pipeline/layers/real-apps/arm.ts';
import { layersSite, layersWordpressApp } from '../../../fixtures/wordpress/layers-site.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { generateTransportTasks } from '../../../pipeline/layers/transport/generate.ts';
import { compoundPairs } from '../../../pipeline/layers/transport/design.ts';
import { runRealAppTrace } from '../../../pipeline/layers/real-apps/condition.ts';
import { realAppPolicyAgent } from '../../../pipeline/layers/real-apps/agent.ts';
import { semanticRecovery } from '../../../pipeline/layers/real-apps/policies.ts';

const family = 'wordpress-general-title';
const tasks = generateTransportTasks().filter((t) => t.family === family);
const chosen = [
  ...tasks.filter((t) => t.transport?.severity === 1 && t.layer === 'baseline'),
  ...compoundPairs.map((p) => tasks.find((t) => t.condition_id === `${family}-compound-${p.id.replace('+', '-')}`)!),
];

let state: string;
let app: RealApp;
let proxy: FaultProxy;

before(async () => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-transport-wp-'));
  fs.chmodSync(state, 0o755); // mariadbd (user mysql) reaches its datadir inside
  app = layersWordpressApp(layersSite({ port: 8659, state }));
  await app.start();
  // the transport arm's table (its registered version 1: a Verification write is never forwarded), as its run uses
  proxy = await startFaultProxy({ layerTable: layerTableOf(1) });
});
after(async () => {
  await proxy?.close();
  await app?.stop();
  fs.rmSync(state, { recursive: true, force: true });
});

test('the slice: each transport fault at severity 1 and each compound pair, on one family', () => {
  assert.deepEqual(chosen.map((t) => t.transport?.fault ?? null).filter(Boolean).sort(), ['asset-error', 'document-error', 'lost-response', 'lost-response', 'popup', 'popup', 'write-error', 'write-error']);
  assert.equal(chosen.length, 10);
  assert.ok(chosen.every((t) => t.changes?.query === 'changeCount'), 'WordPress counts the title\'s changes');
});

for (const browserName of ['chromium', 'firefox'] as const satisfies readonly BrowserName[]) {
  test(`in ${browserName}: each transport fault and compound pair on WordPress through the fault proxy, as the record and the store show it`, async (t) => {
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url, ca: proxy.ca } });
    try {
      for (const task of chosen) {
        const id = task.condition_id;
        const { result: _result, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy, app }, task, agent: realAppPolicyAgent(semanticRecovery, task, app.origin) });
        const writes = row.real_app!.writes;
        const fired = row.real_app!.transport ?? [];
        t.diagnostic(`${browserName} ${id}: AS ${row.apparent_success} VTS ${row.vts} FC ${row.false_completion} FA ${row.false_abandonment} store ${row.store_writes}; writes ${writes.map((w) => `${w.action}${w.status === null ? '' : ` ${w.status}`}`).join(', ') || 'none'}; fired ${fired.map((f) => `${f.match}#${f.n} ${f.effect}`).join(', ') || 'none'}${row.error ? `; error ${row.error}` : ''}`);
        // what every row says, whatever happened
        assert.equal(row.store_writes, row.vts ? 1 : 0, `${id}: the title changed once when it holds the value, else never (${JSON.stringify(writes)})`);
        assert.equal(row.false_completion, row.apparent_success && !row.vts, id);
        assert.equal(typeof row.false_abandonment, 'boolean', id);
        if (row.apparent_success) assert.equal(row.false_abandonment, false, `${id}: it saw the notice, it did not abandon`);
        assert.deepEqual(row.transport ?? null, task.transport ?? null, id);
        assert.deepEqual(row.also ?? null, task.also ?? null, id);
        if (task.transport) {
          const plan = transportPlanFor(task.transport as never, `${task.seed}:${id}`, family);
          assert.ok(fired.length > 0, `${id}: the transport fault fired`);
          assert.ok(fired.every((f) => f.match === plan.match), `${id}: on ${plan.match} requests only: ${JSON.stringify(fired)}`);
          assert.equal(fired[0]!.n, 1, `${id}: first at the first matching request`);
        } else assert.deepEqual(fired, [], `${id}: no transport fault`);
        const fault = task.transport?.fault;
        if (fault === 'document-error') {
          assert.deepEqual(writes, [], `${id}: the start page was an error page, no form to submit`);
          assert.equal(row.vts, false);
        }
        if (fault === 'write-error') {
          assert.equal(writes[0]!.action, 'failed', `${id}: ${JSON.stringify(writes)}`);
          assert.equal(writes[0]!.reached_app, null, `${id}: the failed write never reached WordPress`);
          if (task.layer === 'state') assert.ok(writes.slice(1).every((w) => w.action === 'answered'), `${id}: what passed the error, State held`);
        }
        if (fault === 'lost-response' && writes.length) {
          assert.equal(writes[0]!.action, 'lost', `${id}: ${JSON.stringify(writes)}`);
          assert.notEqual(writes[0]!.reached_app, null, `${id}: the write reached WordPress`);
          assert.equal(row.vts, true, `${id}: and WordPress stored it, whatever the browser showed`);
        }
        if (fault === 'asset-error') assert.ok(fired.length >= 1 && fired.every((f) => f.effect === 'answer'));
        if (fault === 'popup') assert.deepEqual(fired.map((f) => [f.match, f.effect]), [['page', 'popup']], `${id}: the first document only`);
        if (task.also?.layer === 'state' || (task.layer === 'state' && !task.transport)) assert.ok(writes.every((w) => w.action === 'answered'), `${id}: State holds every write`);
        if (task.also?.layer === 'verification') {
          assert.ok(writes.every((w) => w.action === 'dropped'), `${id}: every write of the target dropped: ${JSON.stringify(writes)}`);
          assert.equal(row.vts, false);
        }
      }
    } finally {
      await launched.browser.close();
    }
  });
}
