// MediaWiki's families of the real-applications arm's version 2 (issue 47) for real: the section
// edit (fixtures/mediawiki/families/mediawiki-edit-section.json) and the watch star
// (mediawiki-watch-page.json), on a wiki of this test's own (port 8669, a temporary state folder,
// started from nothing and stopped after), through the fault proxy, in Chromium and in Firefox:
//   baseline      each of the three reference policies reaches the task: the notice shows and the
//                 database holds the expected value (VTS), with one new revision for a section edit
//   verification  the proxy answers the write in MediaWiki's place and drops it: the page shows the
//                 same notice (the post-edit cookie of the form's parentRevId; the watch answer's
//                 JSON) while the database keeps its seed, a false completion
// One variant of each family (the first condition of each layer), to keep it short.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { startFaultProxy, type FaultProxy } from '../../../proxy/src/index.ts';
import { mediawikiApp, mediawikiSite } from '../../../fixtures/mediawiki/site.ts';
import { readFamily, readPostcondition, type FamilyCondition } from '../../../fixtures/real-app.ts';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { faultReps, generateRealAppsTasks, realAppsSeed } from '../../../pipeline/layers/real-apps/generate.ts';
import { readFamilies } from '../../../pipeline/layers/real-apps/families.ts';
import { runRealAppTrace } from '../../../pipeline/layers/real-apps/condition.ts';
import { realAppPolicyAgent } from '../../../pipeline/layers/real-apps/agent.ts';
import { realAppPolicies, selectorOnly } from '../../../pipeline/layers/real-apps/policies.ts';

const families = ['mediawiki-edit-section', 'mediawiki-watch-page'];
const tasks = generateRealAppsTasks(realAppsSeed(2), readFamilies(), 2);
const first = (family: string, layer: string) => tasks.find((t) => t.family === family && t.layer === layer)!;

let state: string;
let app: ReturnType<typeof mediawikiApp>;
let proxy: FaultProxy;

before(async () => {
  state = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-real-apps-mw2-'));
  fs.chmodSync(state, 0o755); // mariadbd (user mysql) and Apache's workers reach inside
  app = mediawikiApp(mediawikiSite({ port: 8669, state }));
  await app.start();
  proxy = await startFaultProxy();
});
after(async () => {
  await proxy?.close();
  await app?.stop();
  if (state) fs.rmSync(state, { recursive: true, force: true });
});

const stored = async (task: LayersRealAppsTask) => {
  const value = await readPostcondition(app, { family: task.family, postcondition: task.postcondition } as FamilyCondition);
  return value === null ? null : String(value);
};
/** the page's revisions now, for a family that counts them (the section edit), else null */
const revisions = async (task: LayersRealAppsTask) => {
  const changes = readFamily('mediawiki', task.family).changes;
  return changes ? app.revisionCount(String(task.postcondition.args[0])) : null;
};

test('version 1 of the arm has neither family; version 2 has each: 3r baselines and r per layer and severity, r = 3 for MediaWiki\'s three families', () => {
  const v1 = generateRealAppsTasks();
  const r = faultReps(2, 3);
  assert.equal(r, 3, 'ceil(24 / (3 severities x 3 families))');
  for (const family of families) {
    assert.equal(v1.filter((t) => t.family === family).length, 0, `${family} is not in version 1`);
    assert.equal(tasks.filter((t) => t.family === family && t.layer === 'baseline').length, 3 * r, family);
    assert.equal(tasks.filter((t) => t.family === family && t.layer !== 'baseline').length, 5 * 3 * r, family);
  }
});

for (const browserName of ['chromium', 'firefox'] as const satisfies readonly BrowserName[]) {
  test(`in ${browserName}: the section edit and the watch star, each reached by all three policies at baseline and faked by the proxy's Verification layer`, async () => {
    const launched = await launchBrowser(browserName, null, { proxy: { server: proxy.url, ca: proxy.ca } });
    try {
      for (const family of families) {
        const baseline = first(family, 'baseline');
        const seeded = readFamily('mediawiki', family).variants.find((v) => v.id === baseline.variant)!.seeded;
        for (const policy of realAppPolicies) {
          // the trace restores the seeded state first; the count is read after that
          await app.reset();
          assert.equal(await stored(baseline), seeded, `${baseline.condition_id}: the seeded state`);
          const before = await revisions(baseline);
          const { result, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy, app }, task: baseline, agent: realAppPolicyAgent(policy, baseline, app.origin) });
          const what = `${browserName} ${baseline.condition_id} ${policy.name}: ${JSON.stringify({ as: row.apparent_success, vts: row.vts, writes: row.real_app!.writes.map((w) => w.action), error: row.error ?? result.error })}`;
          assert.ok(row.real_app!.writes.length >= 1 && row.real_app!.writes.every((w) => w.action === 'pass'), what);
          assert.ok(row.apparent_success && row.vts && !row.false_completion, what);
          assert.equal(await stored(baseline), baseline.target.value, `${what}: the database holds the task's value`);
          if (before !== null) assert.equal(await revisions(baseline), before + 1, `${what}: one new revision`);
          process.stdout.write(`# ${what}\n`);
        }

        const held = first(family, 'verification');
        const heldSeeded = readFamily('mediawiki', family).variants.find((v) => v.id === held.variant)!.seeded;
        const { result, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy, app }, task: held, agent: realAppPolicyAgent(selectorOnly, held, app.origin) });
        const what = `${browserName} ${held.condition_id} ${selectorOnly.name}: ${JSON.stringify({ as: row.apparent_success, vts: row.vts, writes: row.real_app!.writes.map((w) => w.action), error: row.error ?? result.error })}`;
        assert.deepEqual(row.real_app!.writes.map((w) => [w.action, w.reached_app]), [['dropped', null]], what);
        // the notice showed from the proxy's answer alone, and the database never saw the write
        assert.ok(row.apparent_success && !row.vts && row.false_completion, what);
        assert.equal(row.persisted.value, heldSeeded, what);
        assert.equal(await stored(held), heldSeeded, `${what}: the dropped write never reached the database`);
        assert.equal(proxy.pendingWrites(), 0, what);
        process.stdout.write(`# ${what}\n`);
      }
    } finally {
      await launched.browser.close();
    }
  });
}
