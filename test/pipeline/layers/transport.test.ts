// The transport arm for real (issue 37) on a real application: each transport fault at severity 1
// in Chromium and in Firefox, and each designed compound pair once in one of the two (the pairs
// taking turns: make test's time), on WordPress's Settings › General title, through the fault proxy,
// scored by WordPress's database and counted by its change log. The conditions are the arm's version
// 2 (amendment 2, issue 51): the seed's Verification in the pairs, the policy's claim kept, and each
// trace's files (the proxy's HAR, store.json) agreeing with its row.
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
import { planFor, startFaultProxy, transportPlanFor, type FaultProxy, type FaultSpec, type Har } from '../../../proxy/src/index.ts';
import { layerTableOf } from '../../../pipeline/layers/real-apps/arm.ts';
import { layersSite, layersWordpressApp } from '../../../fixtures/wordpress/layers-site.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { generateTransportTasks, transportSeed } from '../../../pipeline/layers/transport/generate.ts';
import type { StoreReads } from '../../../core/contracts.ts';
import { compoundPairs } from '../../../pipeline/layers/transport/design.ts';
import { runRealAppTrace } from '../../../pipeline/layers/real-apps/condition.ts';
import { realAppPolicyAgent } from '../../../pipeline/layers/real-apps/agent.ts';
import { semanticRecovery } from '../../../pipeline/layers/real-apps/policies.ts';

const family = 'wordpress-general-title';
const tasks = generateTransportTasks(transportSeed(2), undefined, 2).filter((t) => t.family === family);
const faults = tasks.filter((t) => t.transport?.severity === 1 && t.layer === 'baseline');
const pairs = compoundPairs.map((p) => tasks.find((t) => t.condition_id === `${family}-compound-${p.id.replace('+', '-')}`)!);
const chosen = [...faults, ...pairs];
/** every transport fault in each browser; the compound pairs taking turns between the two */
const chosenFor = (browser: number) => [...faults, ...pairs.filter((_, i) => i % 2 === browser)];

let state: string;
let app: RealApp;
let proxy: FaultProxy;

before(async () => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-transport-wp-'));
  fs.chmodSync(state, 0o755); // mariadbd (user mysql) reaches its datadir inside
  app = layersWordpressApp(layersSite({ port: 8659, state }));
  await app.start();
  // the transport arm's version-2 table (the seed's Verification: a later save commits) and its HAR, as its run uses
  proxy = await startFaultProxy({ layerTable: layerTableOf(2), har: true });
});
after(async () => {
  await proxy?.close();
  await app?.stop();
  fs.rmSync(state, { recursive: true, force: true });
});

test('the slice: each transport fault at severity 1 and each compound pair, on one family', () => {
  assert.deepEqual(chosen.map((t) => t.transport?.fault ?? null).filter(Boolean).sort(), ['asset-error', 'document-error', 'lost-response', 'lost-response', 'popup', 'popup', 'write-error', 'write-error']);
  assert.equal(chosen.length, 10);
  assert.deepEqual([...chosenFor(0), ...chosenFor(1)].filter((t) => !faults.includes(t)).map((t) => t.condition_id).sort(), pairs.map((t) => t.condition_id).sort(), 'each pair in one browser');
  assert.ok(chosen.every((t) => t.version === 2));
  assert.ok(chosen.every((t) => t.changes?.query === 'changeCount'), 'WordPress counts the title\'s changes');
});

for (const [b, browserName] of (['chromium', 'firefox'] as const satisfies readonly BrowserName[]).entries()) {
  test(`in ${browserName}: each transport fault and half the compound pairs on WordPress through the fault proxy, as the record, the store and the trace's files show it`, async (t) => {
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url, ca: proxy.ca } });
    try {
      for (const task of chosenFor(b)) {
        const id = task.condition_id;
        const { result: _result, files, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy, app }, task, agent: realAppPolicyAgent(semanticRecovery, task, app.origin) });
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
        // version 2: the claim kept (done only on a notice it saw), and the files agree with the row
        assert.equal(row.arm_version, 2, id);
        if (row.claim?.done) assert.ok(row.apparent_success, `${id}: it claims done only on a notice it saw`);
        assert.equal(row.claim_false_completion, row.claim?.done === true && !row.vts, id);
        assert.deepEqual(files?.map((f) => f.name), ['trace.har', 'store.json'], id);
        const store = JSON.parse(String(files![1]!.content)) as StoreReads;
        assert.equal(store.boundary.value, row.persisted.value, id);
        assert.equal(store.changes.boundary! - store.changes.before!, row.store_writes, id);
        const har = JSON.parse(String(files![0]!.content)) as Har;
        assert.equal(har.log.entries.filter((e) => e._write).length, writes.length, `${id}: a HAR write entry for each write the proxy matched`);
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
          // the seed's Verification: every write answered at once, only the saves_required-th and later
          // reach WordPress (its settings page shows no notice for an answered save: the policy may save again)
          const required = planFor({ spec: task.spec as unknown as FaultSpec, layer: 'verification', severity: task.also.severity as 1 | 2 | 3, seed: `${task.seed}:${id}` }).write!.passFromSave!;
          assert.deepEqual(writes.map((w) => w.action), writes.map((_, i) => (i + 1 < required ? 'dropped' : 'pass')), `${id}: ${JSON.stringify(writes)}`);
          assert.equal(row.vts, writes.length >= required, `${id}: VTS exactly when the ${required}th save was made`);
        }
      }
    } finally {
      await launched.browser.close();
    }
  });
}
