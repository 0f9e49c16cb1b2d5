// The transport arm on a small app (issue 37): each transport fault the small apps can be given, at
// severity 1, and each designed compound pair once, on the cards app, in Chromium and in Firefox,
// through the fault proxy; the app's own server makes the layers, the proxy the transport fault, and
// the store counts the writes to the target. Each trace runs the semantic-recovery policy. What each
// fault is designed to do shows in the proxy's record and in the store, whatever the policy made of it:
//   document-error   the start page is an error page: no save is ever sent
//   write-error      the first save of the target is answered with an error and never reaches the app
//   lost-response    the first save reaches the app, which commits it; its answer is lost
//   popup            a pop-up covers the first document
// and on a condition without a layer of the app's, the store's count is exactly the saves of the
// target that reached the app (the proxy's record and the store agree). The traces are the arm's
// version 2 (amendment 2, issue 51): the policy's claim is kept (done only when it saw the success),
// and each trace keeps its files: the proxy's HAR (a write entry for each save the proxy matched)
// and store.json, the store's record of the target, which agrees with the row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFaultProxy, transportPlanFor, type FaultProxy, type Har } from '../../../proxy/src/index.ts';
import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { generateSmallTransportTasks, runSmallTransportTrace, smallAppSpec, smallAppTransportFaults } from '../../../pipeline/layers/transport/small-apps.ts';
import { storeText } from '../../../core/store-text.ts';
import { compoundPairs } from '../../../pipeline/layers/transport/design.ts';
import { layersPolicies } from '../../../pipeline/layers/policies/index.ts';
import { claimingAgent } from '../../../pipeline/layers/policies/agent.ts';
import { isValid } from '../../../core/validate.ts';
import type { StoreReads } from '../../../core/contracts.ts';
import { transportVerifiedPolicies, verifiedAgent } from '../../../pipeline/layers/policies/verified.ts';

const tasks = generateSmallTransportTasks().filter((t) => t.template === 'cards');
const chosen = [
  ...tasks.filter((t) => t.transport?.severity === 1 && t.layer === 'baseline'),
  ...compoundPairs.map((p) => tasks.find((t) => t.condition_id === `cards-compound-${p.id.replace('+', '-')}`)!),
];

let server: FixtureServer;
let proxy: FaultProxy;
before(async () => {
  server = await startFixtureServer();
  proxy = await startFaultProxy({ har: true });
});
after(async () => {
  await proxy?.close();
  server?.close();
});

test('the slice: each transport fault a small app can be given at severity 1, and each compound pair, on the cards app', () => {
  assert.deepEqual(chosen.filter((t) => t.layer === 'baseline').map((t) => t.transport!.fault).sort(), [...smallAppTransportFaults].sort());
  assert.equal(chosen.length, smallAppTransportFaults.length + compoundPairs.length);
  assert.ok(chosen.every((t) => t.arm === 'transport'));
});

for (const browserName of ['chromium', 'firefox'] as const satisfies readonly BrowserName[]) {
  test(`in ${browserName}: each transport fault and compound pair on the cards app through the fault proxy, as the record and the store show it`, async (t) => {
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url } });
    try {
      for (const task of chosen) {
        const id = task.condition_id;
        const { result: _result, proxyLog, files, ...row } = await runSmallTransportTrace({ browser: launched.browser, proxy, server, task, agent: claimingAgent(layersPolicies['semantic-recovery']!, task), version: 2 });
        const saves = proxyLog.filter((e) => e.write);
        const fired = proxyLog.filter((e) => e.transport);
        t.diagnostic(`${browserName} ${id}: AS ${row.apparent_success} VTS ${row.vts} FC ${row.false_completion} FA ${row.false_abandonment} store ${row.store_writes}; saves ${saves.map((e) => `${e.action}${e.status === null ? '' : ` ${e.status}`}`).join(', ') || 'none'}; fired ${fired.map((e) => `${e.transport!.match}#${e.transport!.n} ${e.transport!.effect}`).join(', ') || 'none'}${row.error ? `; error ${row.error}` : ''}`);
        assert.deepEqual(row.transport ?? null, task.transport ?? null, id);
        assert.deepEqual(row.also ?? null, task.also ?? null, id);
        assert.equal(row.control ?? null, task.control ?? null, id);
        assert.equal(row.false_completion, row.apparent_success && !row.vts, id);
        // version 2: the claim kept, done only when the policy saw the success; the trace's files agree with the row
        assert.equal(row.arm_version, 2, id);
        if (row.claim?.done) assert.ok(row.apparent_success, `${id}: it claims done only on a success it saw`);
        assert.equal(row.claim_false_completion, row.claim?.done === true && !row.vts, id);
        assert.deepEqual(files?.map((f) => f.name), ['trace.har', 'store.json'], id);
        const store = JSON.parse(String(files![1]!.content)) as StoreReads;
        assert.ok(isValid('store-reads', store), `${id}: store.json is a StoreReads`);
        assert.equal(store.boundary.value, storeText(row.persisted.value), `${id}: the store's record at the boundary is the row's`);
        assert.equal(store.boundary.value === store.target, row.vts, `${id}: VTS from store.json alone`);
        assert.equal(store.notice?.shown_at_ms !== null && store.notice!.shown_at_ms <= store.boundary.at_ms, row.apparent_success, `${id}: AS from store.json alone`);
        assert.equal(store.changes.boundary, row.store_writes, id);
        const har = JSON.parse(String(files![0]!.content)) as Har;
        assert.equal(har.log.entries.filter((e) => e._write).length, saves.length, `${id}: a HAR write entry for each save the proxy matched`);
        if (row.apparent_success) assert.equal(row.false_abandonment, false, `${id}: it saw success, it did not abandon`);
        if (task.transport) {
          const plan = transportPlanFor(task.transport as never, `${task.seed}:${id}`, smallAppSpec(task).family);
          assert.ok(fired.length > 0, `${id}: the transport fault fired`);
          assert.ok(fired.every((e) => e.transport!.match === plan.match), id);
          assert.equal(fired[0]!.transport!.n, 1, `${id}: first at the first matching request`);
        } else assert.deepEqual(fired, [], id);
        if (task.layer === 'baseline') {
          // no layer of the app's: every save of the target that reached the app is a commit
          const reached = saves.filter((e) => e.action === 'pass' || e.action === 'lost').length;
          assert.equal(row.store_writes, reached, `${id}: the store counts what reached it: ${JSON.stringify(saves.map((e) => e.action))}`);
        }
        const fault = task.transport?.fault;
        if (fault === 'document-error') {
          assert.deepEqual(saves, [], `${id}: no form, no save`);
          assert.equal(row.vts, false);
        }
        if (fault === 'write-error') assert.deepEqual([saves[0]!.action, saves[0]!.transport?.effect], ['failed', 'answer'], id);
        if (fault === 'lost-response' && saves.length) {
          assert.equal(saves[0]!.action, 'lost', id);
          assert.ok(row.store_writes! >= 1, `${id}: the app committed the save whose answer was lost`);
        }
        if (fault === 'popup') assert.deepEqual(fired.map((e) => [e.transport!.match, e.transport!.effect]), [['page', 'popup']], id);
      }
    } finally {
      await launched.browser.close();
    }
  });
}

for (const browserName of ['chromium', 'firefox'] as const satisfies readonly BrowserName[]) {
  test(`in ${browserName}: every answer lost (lost-response 3): a verified retry that acts again at once writes again; the retry pattern reads the store and stops`, async (t) => {
    const task = tasks.find((x) => x.condition_id === 'cards-transport-lost-response-3')!;
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url } });
    try {
      const run = async (policy: string) => {
        const { result: _r, proxyLog, ...row } = await runSmallTransportTrace({ browser: launched.browser, proxy, server, task, agent: verifiedAgent(transportVerifiedPolicies[policy]!, task) });
        t.diagnostic(`${browserName} ${policy}: claim ${JSON.stringify(row.claim)} VTS ${row.vts} FA ${row.false_abandonment} store ${row.store_writes}; saves ${proxyLog.filter((e) => e.write).map((e) => e.action).join(', ')}`);
        return { row, saves: proxyLog.filter((e) => e.write) };
      };
      const naive = await run('verified-semantic-recovery');
      const checked = await run('verified-checked-retry');
      for (const { row, saves } of [naive, checked]) {
        assert.equal(row.vts, true, 'the first save was stored');
        assert.ok(saves.every((e) => e.action === 'lost'), 'every answer lost');
        assert.equal(row.store_writes, saves.length, 'every save reached the store');
      }
      assert.equal(naive.row.claim?.done, false, 'it never saw a save close');
      assert.equal(naive.row.false_abandonment, true, 'done, and ended as not done');
      assert.equal(checked.row.claim?.done, true, 'the store said it was done');
      assert.match(checked.row.claim!.message!, /already-done/);
      assert.equal(checked.row.false_abandonment, false);
      assert.ok(checked.row.store_writes! < naive.row.store_writes!, `the retry pattern wrote fewer times: ${checked.row.store_writes} < ${naive.row.store_writes}`);
    } finally {
      await launched.browser.close();
    }
  });
}
