// The real-applications arm for real (issue 36): one condition per layer, the layers taking turns
// between the two applications (WordPress's profile form, MediaWiki's page edit) and the other way
// round in the other browser, in Chromium and in Firefox, through the fault
// proxy, scored by each application's database. Each trace runs the selector-only policy, which
// looks once and activates the first control once, so what each layer is designed to do shows
// plainly in the proxy's record of the write and in the database:
//   baseline      the write passes and the database holds the value (AS and VTS)
//   access        the control is hidden when it looks: nothing is sent, the database keeps its seed
//   perception    the first control by role and name is the target or a decoy, as the seed placed
//                 them (the proxy's own plan says which): a write passes exactly when it was the target
//   action        its one activation is swallowed: nothing is sent
//   state         the proxy answers the write and holds it: the notice shows, the database keeps its
//                 seed at the boundary (a false completion), and the held write never reaches it
//   verification  the proxy answers and drops the write: the same, and the write never reaches it
// The apps run on this test's own ports and state folders, started from nothing and stopped after.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { layers } from '../../../core/layers.ts';
import { startFaultProxy, planFor, type FaultProxy, type FaultSpec } from '../../../proxy/src/index.ts';
import { layersSite, layersWordpressApp } from '../../../fixtures/wordpress/layers-site.ts';
import { mediawikiApp, mediawikiSite } from '../../../fixtures/mediawiki/site.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { readPostcondition, type FamilyCondition } from '../../../fixtures/real-app.ts';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { generateRealAppsTasks, realAppsSeed } from '../../../pipeline/layers/real-apps/generate.ts';
import { runRealAppTrace } from '../../../pipeline/layers/real-apps/condition.ts';
import { realAppPolicyAgent } from '../../../pipeline/layers/real-apps/agent.ts';
import { selectorOnly, semanticRecovery, verificationAware } from '../../../pipeline/layers/real-apps/policies.ts';
import { liveFamilyProblems, shippedFamilies } from '../../../pipeline/layers/real-apps/check-families.ts';

const families = ['wordpress-profile-field', 'mediawiki-edit-page'];
const tasks = generateRealAppsTasks();
/** one condition per layer: the first of the layer's highest severity (the longest hold, the most decoys) */
const chosenOf = (family: string, layer: string) => {
  const of = tasks.filter((t) => t.family === family && t.layer === layer);
  return of.find((t) => t.severity === Math.max(...of.map((x) => x.severity)))!;
};
/** each layer once in each browser, the applications taking turns by layer, the other way round in
 * the other browser: every (application, layer) pair runs in one of the two browsers (make test's time) */
const chosenFor = (browser: number) => layers.map((layer, i) => chosenOf(families[(i + browser) % families.length]!, layer));

const states: string[] = [];
let apps: Record<string, RealApp>;
let proxy: FaultProxy;

const tempState = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rstack-${name}-`));
  fs.chmodSync(dir, 0o755); // mariadbd (user mysql) reaches its datadir inside
  states.push(dir);
  return dir;
};

before(async () => {
  const wordpress = layersWordpressApp(layersSite({ port: 8657, state: tempState('real-apps-wp') }));
  const mediawiki = mediawikiApp(mediawikiSite({ port: 8667, state: tempState('real-apps-mw') }));
  // each app is stopped after even when the other's start failed: a WordPress left running holds its port for the next run
  apps = { wordpress, mediawiki };
  await wordpress.start();
  await mediawiki.start();
  proxy = await startFaultProxy();
});
after(async () => {
  await proxy?.close();
  for (const app of Object.values(apps ?? {})) await app.stop();
  for (const dir of states) fs.rmSync(dir, { recursive: true, force: true });
});

const seededValue = async (app: RealApp, task: LayersRealAppsTask) => {
  await app.reset();
  const value = await readPostcondition(app, { family: task.family, postcondition: task.postcondition } as FamilyCondition);
  return value === null ? null : String(value);
};

test('each (application, layer) pair runs in one of the two browsers, and every layer in each', () => {
  const both = [chosenFor(0), chosenFor(1)];
  for (const chosen of both) assert.deepEqual(chosen.map((t) => t.layer), [...layers]);
  assert.deepEqual(new Set(both.flat().map((t) => `${t.family} ${t.layer}`)), new Set(families.flatMap((f) => layers.map((l) => `${f} ${l}`))));
});

for (const [b, browserName] of (['chromium', 'firefox'] as const satisfies readonly BrowserName[]).entries()) {
  test(`in ${browserName}: one condition per layer on WordPress or MediaWiki through the fault proxy, each layer doing what it is designed to, the database read`, async () => {
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url, ca: proxy.ca } });
    try {
      for (const task of chosenFor(b)) {
        const app = apps[task.app]!;
        const seeded = await seededValue(app, task);
        assert.notEqual(seeded, task.target.value, `${task.condition_id}: the seeded state is not already the postcondition`);
        const { result, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy, app }, task, agent: realAppPolicyAgent(selectorOnly, task, app.origin) });
        const what = `${browserName} ${task.condition_id}: ${JSON.stringify({ as: row.apparent_success, vts: row.vts, writes: row.real_app!.writes, error: row.error })}`;
        const writes = row.real_app!.writes;
        // the database after the condition: a held write was cancelled by the proxy's reset
        const after = (await readPostcondition(app, { family: task.family, postcondition: task.postcondition } as FamilyCondition));
        switch (task.layer) {
          case 'baseline':
            assert.deepEqual(writes.map((w) => w.action), ['pass'], what);
            assert.ok(row.apparent_success && row.vts && !row.false_completion, what);
            break;
          case 'access':
          case 'action':
            assert.deepEqual(writes, [], what);
            assert.ok(!row.vts && row.persisted.value === seeded, what);
            break;
          case 'perception': {
            const plan = planFor({ spec: task.spec as unknown as FaultSpec, layer: task.layer, severity: task.severity as 1 | 2 | 3, seed: `${task.seed}:${task.condition_id}` });
            const targetFirst = plan.page!.decoysBefore === 0;
            assert.deepEqual(writes.map((w) => w.action), targetFirst ? ['pass'] : [], what);
            assert.equal(row.vts, targetFirst, what);
            break;
          }
          case 'state':
          case 'verification':
            assert.deepEqual(writes.map((w) => [w.action, w.reached_app]), [[task.layer === 'state' ? 'answered' : 'dropped', null]], what);
            // these two families' pages render the notice from the proxy's answer alone: a false completion
            assert.ok(row.apparent_success && !row.vts && row.false_completion, what);
            assert.equal(row.persisted.value, seeded, what);
            assert.equal(after === null ? null : String(after), seeded, `${what}: the held or dropped write never reached the database`);
            break;
        }
        assert.equal(proxy.pendingWrites(), 0, `${what}: nothing held after the condition`);
      }
    } finally {
      await launched.browser.close();
    }
  });
}

// Version 2 of the arm (issue 47): the seed's Verification (proxy/faults/layers.json), every save
// answered as a success at once, only the saves_required-th reaching the application, and the
// policies' claims in the row. Verification-aware reads the stored state back and saves again, so
// it reaches VTS on the real applications as on the small apps, and claims done once it read it
// back; semantic recovery stops at the first notice and claims done: a false completion by the page
// and by the claim alike.
const tasksV2 = generateRealAppsTasks(realAppsSeed(2), undefined, 2);
// the Trash link is a commit-only family whose read-back leaves its page (the Trash view): the repair
// goes back to the list where the link is (version 2), or no repair is made. Each browser runs it and
// one of the other two families, WordPress's profile in Chromium and MediaWiki's page in Firefox
// (make test's time; the registered runs have every family in both)
const seedVerificationOf = (family: string) => tasksV2.find((t) => t.family === family && t.layer === 'verification' && t.severity === 3)!;
const seedVerificationFor = (browser: number) => [families[browser]!, 'wordpress-posts-trash'].map(seedVerificationOf);
for (const [b, browserName] of (['chromium', 'firefox'] as const satisfies readonly BrowserName[]).entries()) {
  test(`in ${browserName}: the seed's Verification on ${b === 0 ? 'WordPress' : 'MediaWiki and WordPress'}: verification-aware repairs it with more saves and reaches VTS, semantic recovery trusts the first notice`, async (t) => {
    const current = await startFaultProxy({ layerTable: 'current' });
    t.after(() => current.close());
    const launched = await launchBrowser(browserName, null, { proxy: { server: current.url, ca: current.ca } });
    try {
      for (const task of seedVerificationFor(b)) {
        const app = apps[task.app]!;
        const seeded = await seededValue(app, task);
        const required = planFor({ spec: task.spec as unknown as FaultSpec, layer: 'verification', severity: 3, seed: 'x' }).write!.passFromSave!;
        for (const policy of [semanticRecovery, verificationAware]) {
          const { result: _result, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy: current, app }, task, agent: realAppPolicyAgent(policy, task, app.origin) });
          const actions = row.real_app!.writes.map((w) => w.action);
          const what = `${browserName} ${task.condition_id} ${policy.name}: ${JSON.stringify({ as: row.apparent_success, vts: row.vts, actions, claim: row.claim, error: row.error })}`;
          assert.equal(row.error, null, what);
          assert.equal(row.arm_version, 2, what);
          if (policy === semanticRecovery) {
            assert.deepEqual(actions, ['dropped'], `${what}: one save, answered, never stored`);
            assert.ok(row.apparent_success && !row.vts && row.false_completion, what);
            assert.equal(row.persisted.value, seeded, what);
            assert.equal(row.claim?.done, true, `${what}: it saw the notice and claims done`);
            assert.deepEqual([row.claim_false_completion, row.ended_done, row.false_abandonment], [true, true, false], what);
          } else {
            assert.deepEqual(actions.slice(0, required), [...Array(required - 1).fill('dropped'), 'pass'], `${what}: the ${required}th save reached the app`);
            assert.ok(row.vts && !row.false_completion, what);
            assert.equal(row.persisted.value, task.target.value, what);
            assert.equal(row.claim?.done, true, `${what}: it read the stored state back after its last repair, and claims done`);
            assert.deepEqual([row.claim_false_completion, row.false_abandonment], [false, false], what);
          }
        }
      }
    } finally {
      await launched.browser.close();
    }
  });
}

// make check-families' live half (issue 47 item 4) on the apps this file started: every shipped
// family's postcondition runs on a fresh restore and returns its variant's `seeded`; a family whose
// `seeded` is wrong is named by its file and field.
test('the families\' postconditions on a fresh restore of both apps return each variant\'s seeded value; a wrong one is named', async () => {
  const entries = shippedFamilies();
  assert.deepEqual(await liveFamilyProblems(apps as never, entries), []);
  const title = entries.find((e) => e.file.endsWith('wordpress-general-title.json'))!;
  const wrong = structuredClone(title.family) as { variants: { seeded: string | null }[] };
  wrong.variants[0]!.seeded = 'not what the seed wrote';
  const problems = await liveFamilyProblems(apps as never, [{ ...title, family: wrong as never }]);
  assert.deepEqual(problems.map((p) => [p.file, p.field]), [[title.file, `variants.0 (${(title.family as { variants: { id: string }[] }).variants[0]!.id}).seeded`]]);
  assert.match(problems[0]!.problem, /on a fresh restore, not "not what the seed wrote"/);
});
