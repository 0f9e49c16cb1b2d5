// shares the machine: two real applications (mariadbd + apache2 each), two copies of each, Chromium
// The real-applications arm's workers (issue 49): worker k > 0 gets its own copy of each
// application (its own database on the same mariadbd, made from the same seeded snapshot, served by
// an apache2 of its own) and its own fault proxy, through realAppsResources as a run makes them.
// Before every condition each copy holds the seeded state, table for table the original's; a write
// in one copy is seen in no other; the seeded session is logged in on every copy; a baseline
// condition run at once on worker 1 and worker 2 scores each in its own copy only. The apps run on
// this test's own ports (8801, 8802; copies at +10, +20) and state folders, started from nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../core/errors.ts';
import { tableChecksums, restoreScriptFor } from '../../../fixtures/lamp/snapshot.ts';
import { runningPid } from '../../../core/service.ts';
import type { RealApp } from '../../../fixtures/real-app.ts';
import { readPostcondition, type FamilyCondition } from '../../../fixtures/real-app.ts';
import type { LayersWordpress } from '../../../fixtures/wordpress/layers-site.ts';
import type { WikiSite } from '../../../fixtures/mediawiki/site.ts';
import { launchBrowser } from '../../../pipeline/browser/launch.ts';
import { adoptedWorkers, realAppsResources, refuseUnadoptedWorkers, type RealAppsSlot } from '../../../pipeline/layers/real-apps/arm.ts';
import { generateRealAppsTasks } from '../../../pipeline/layers/real-apps/generate.ts';
import { runRealAppTrace } from '../../../pipeline/layers/real-apps/condition.ts';
import { realAppPolicyAgent } from '../../../pipeline/layers/real-apps/agent.ts';
import { selectorOnly } from '../../../pipeline/layers/real-apps/policies.ts';

const states: string[] = [];
const tempState = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rstack-${name}-`));
  fs.chmodSync(dir, 0o755); // mariadbd (user mysql) reaches its datadir inside
  states.push(dir);
  return dir;
};

const saved = { ...process.env };
let resources: ReturnType<typeof realAppsResources>;
let slots: RealAppsSlot[];

before(async () => {
  Object.assign(process.env, {
    LAYERS_WORDPRESS_PORT: '8801', LAYERS_WORDPRESS_STATE: tempState('workers-wp'),
    MEDIAWIKI_PORT: '8802', MEDIAWIKI_STATE: tempState('workers-mw'),
    REAL_APPS_WORKER_PORT_STEP: '10',
  });
  resources = realAppsResources();
  const t0 = performance.now();
  const first = await resources.get(0);
  const t1 = performance.now();
  const copies = await Promise.all([resources.get(1), resources.get(2)]);
  process.stdout.write(`# both apps from nothing in ${Math.round(t1 - t0)} ms; two copies of each (databases, apache2s, proxies) in ${Math.round(performance.now() - t1)} ms\n`);
  slots = [first, ...copies];
});
after(async () => {
  await resources?.close();
  process.env = saved;
  for (const dir of states) fs.rmSync(dir, { recursive: true, force: true });
});

const wikiSite = (app: RealApp) => (app as RealApp & { site: WikiSite }).site;
const wpSite = (app: RealApp) => (app as LayersWordpress).site;
const checksums = async (slot: RealAppsSlot) => ({
  wordpress: await tableChecksums(wpSite(slot.apps.wordpress), wpSite(slot.apps.wordpress).database ?? 'wordpress'),
  mediawiki: await tableChecksums(wikiSite(slot.apps.mediawiki), wikiSite(slot.apps.mediawiki).database ?? 'mediawiki'),
});

test('a copy restore script names the copy wherever it named the original, and the seed tables as they were', () => {
  const script = [
    '-- written by fixtures/lamp/snapshot.ts: restores wordpress from wordpress_seed (the seeded state)',
    'DELETE FROM wordpress.`wp_options`;',
    'INSERT INTO wordpress.`wp_options` SELECT * FROM wordpress_seed.`wp_options`;',
    "SET @moved = (SELECT IF(AUTO_INCREMENT <> 7, 'ALTER TABLE wordpress.`wp_options` AUTO_INCREMENT = 7', 'DO 0') FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'wordpress' AND TABLE_NAME = 'wp_options');",
  ].join('\n');
  const copy = restoreScriptFor(script, 'wordpress', 'wordpress_w1');
  assert.doesNotMatch(copy, /\bwordpress\.`|'wordpress'/);
  assert.equal(copy.match(/wordpress_seed\.`wp_options`/g)?.length, 1);
  assert.match(copy, /DELETE FROM wordpress_w1\.`wp_options`;\nINSERT INTO wordpress_w1\.`wp_options` SELECT \* FROM wordpress_seed\.`wp_options`;/);
  assert.match(copy, /'ALTER TABLE wordpress_w1\.`wp_options` AUTO_INCREMENT = 7'.*TABLE_SCHEMA = 'wordpress_w1'/);
  assert.throws(() => restoreScriptFor(script, 'wordpress', 'x; DROP'), /not a plain table name/);
});

test('a registered run takes more than one worker only as far as a frozen amendment adopts it, per arm version and browser; a smoke run may take them; --browsers stays 1', () => {
  // prereg/layers-real-apps-amendment-1.md adopts two workers for version 2 in Chromium, and nothing else
  assert.deepEqual(adoptedWorkers('real-apps', 2, 'chromium'), { workers: 2, by: 'layers-real-apps-amendment-1' });
  assert.deepEqual(adoptedWorkers('real-apps', 2, 'firefox'), { workers: 1, by: null });
  assert.deepEqual(adoptedWorkers('real-apps', 1, 'chromium'), { workers: 1, by: null });
  assert.deepEqual(adoptedWorkers('transport', 1, 'chromium'), { workers: 1, by: null });
  refuseUnadoptedWorkers('real-apps', { smoke: false, workers: 2 }, 'run-real-apps', { version: 2, browser: 'chromium' });
  assert.throws(() => refuseUnadoptedWorkers('real-apps', { smoke: false, workers: 3 }, 'run-real-apps', { version: 2, browser: 'chromium' }), (e) => e instanceof UsageError && /layers-real-apps-amendment-1 adopts at most 2 workers/.test(e.message));
  assert.throws(() => refuseUnadoptedWorkers('real-apps', { smoke: false, workers: 2 }, 'run-real-apps', { version: 2, browser: 'firefox' }), (e) => e instanceof UsageError && /no frozen amendment/.test(e.message));
  assert.throws(() => refuseUnadoptedWorkers('real-apps', { smoke: false, workers: 2 }, 'run-real-apps'), (e) => e instanceof UsageError && /no frozen amendment/.test(e.message));
  assert.throws(() => refuseUnadoptedWorkers('transport', { smoke: false, workers: 3 }, 'run-transport'), UsageError);
  refuseUnadoptedWorkers('real-apps', { smoke: false, workers: 1 }, 'run-real-apps');
  refuseUnadoptedWorkers('real-apps', { smoke: true, workers: 3 }, 'run-real-apps');
  assert.throws(() => refuseUnadoptedWorkers('real-apps', { smoke: true, workers: 2, browsers: 2 }, 'run-real-apps'), UsageError);
});

test('each worker has its own origin, apache2, database and proxy; the mariadbd is the original\'s', () => {
  const origins = slots.flatMap((s) => [s.apps.wordpress.origin, s.apps.mediawiki.origin]);
  assert.deepEqual(origins, ['http://127.0.0.1:8801', 'http://127.0.0.1:8802', 'http://127.0.0.1:8811', 'http://127.0.0.1:8812', 'http://127.0.0.1:8821', 'http://127.0.0.1:8822']);
  assert.equal(new Set(slots.map((s) => s.proxy.url)).size, 3);
  for (const app of ['wordpress', 'mediawiki'] as const) {
    const sites = slots.map((s) => (app === 'wordpress' ? wpSite(s.apps[app]) : wikiSite(s.apps[app])));
    assert.equal(new Set(sites.map((s) => runningPid(s.apache))).size, 3, `${app}: an apache2 per worker`);
    assert.equal(new Set(sites.map((s) => runningPid(s.mariadb))).size, 1, `${app}: one mariadbd`);
    assert.deepEqual(sites.map((s) => s.database ?? null), [null, `${app}_w1`, `${app}_w2`]);
  }
});

test('before every condition, every copy holds the seeded state: the same checksum of every table as the original, after a write in one of them too', async () => {
  // what a condition's restore costs in the original and in a copy (printed, not asserted)
  const took: string[] = [];
  for (const [k, s] of slots.entries()) {
    for (const app of ['wordpress', 'mediawiki'] as const) {
      const t0 = performance.now();
      await s.apps[app].reset();
      took.push(`${app} w${k} ${Math.round(performance.now() - t0)} ms`);
    }
  }
  process.stdout.write(`# restore before a condition: ${took.join(', ')}\n`);
  const seeded = await checksums(slots[0]!);
  assert.ok(Object.keys(seeded.wordpress).length > 10 && Object.keys(seeded.mediawiki).length > 40, 'every table of both apps');
  for (const [k, s] of slots.entries()) assert.deepEqual(await checksums(s), seeded, `worker ${k}'s copy`);
  // a write in worker 1's copy only
  const wp1 = slots[1]!.apps.wordpress;
  await wp1.query("UPDATE wp_options SET option_value = 'written by worker 1' WHERE option_name = 'blogname'");
  assert.equal(await (wp1 as LayersWordpress).siteTitle(), 'written by worker 1');
  assert.notEqual(await (slots[0]!.apps.wordpress as LayersWordpress).siteTitle(), 'written by worker 1');
  assert.notEqual(await (slots[2]!.apps.wordpress as LayersWordpress).siteTitle(), 'written by worker 1');
  assert.notDeepEqual((await checksums(slots[1]!)).wordpress, seeded.wordpress);
  assert.deepEqual(await checksums(slots[2]!), seeded);
  await wp1.reset();
  for (const [k, s] of slots.entries()) assert.deepEqual(await checksums(s), seeded, `worker ${k}'s copy after worker 1's reset`);
});

test('the seeded session is logged in on every copy, and each copy serves its own database', async () => {
  for (const [k, s] of slots.entries()) {
    const cookie = (await s.apps.wordpress.session()).map((c) => `${c.name}=${c.value}`).join('; ');
    const admin = await fetch(`${s.apps.wordpress.origin}/wp-admin/profile.php`, { headers: { cookie }, redirect: 'manual' });
    assert.equal(admin.status, 200, `worker ${k}: WordPress's profile page, logged in`);
    await admin.arrayBuffer();
    const wikiCookie = (await s.apps.mediawiki.session()).map((c) => `${c.name}=${c.value}`).join('; ');
    const info = await (await fetch(`${s.apps.mediawiki.origin}/api.php?action=query&meta=userinfo&format=json`, { headers: { cookie: wikiCookie } })).json() as { query: { userinfo: { name: string } } };
    assert.equal(info.query.userinfo.name, 'Editor', `worker ${k}: MediaWiki's editor, logged in`);
  }
  await slots[2]!.apps.wordpress.query("UPDATE wp_options SET option_value = 'served by worker 2' WHERE option_name = 'blogname'");
  try {
    const pages = await Promise.all(slots.map(async (s) => (await fetch(`${s.apps.wordpress.origin}/`)).text()));
    assert.deepEqual(pages.map((p) => p.includes('served by worker 2')), [false, false, true]);
  } finally {
    await slots[2]!.apps.wordpress.reset();
  }
});

test('a baseline condition run at once on workers 1 and 2, each in Chromium through its own proxy, is scored in its own copy only', async () => {
  const tasks = generateRealAppsTasks();
  const byFamily = (family: string) => tasks.find((t) => t.family === family && t.layer === 'baseline')!;
  const chosen = [byFamily('wordpress-profile-field'), byFamily('mediawiki-edit-page')];
  for (const task of chosen) {
    const run = async (slot: RealAppsSlot) => {
      const launched = await launchBrowser('chromium', null, { proxy: { server: slot.proxy.url, ca: slot.proxy.ca } });
      try {
        const app = slot.apps[task.app];
        const { result: _r, ...row } = await runRealAppTrace({ stage: { browser: launched.browser, proxy: slot.proxy, app }, task, agent: realAppPolicyAgent(selectorOnly, task, app.origin) });
        return { row, value: await readPostcondition(app, { family: task.family, postcondition: task.postcondition } as FamilyCondition) };
      } finally {
        await launched.browser.close();
      }
    };
    await slots[0]!.apps[task.app].reset();
    const seeded = await readPostcondition(slots[0]!.apps[task.app], { family: task.family, postcondition: task.postcondition } as FamilyCondition);
    const [one, two] = await Promise.all([run(slots[1]!), run(slots[2]!)]);
    for (const [k, r] of [[1, one], [2, two]] as const) {
      assert.equal(r.row.vts, true, `${task.condition_id} on worker ${k}: the write is in its copy`);
      assert.equal(r.row.apparent_success, true, `${task.condition_id} on worker ${k}: the notice shows`);
      assert.equal(String(r.value), String(task.target.value), `${task.condition_id} on worker ${k}`);
    }
    assert.equal(String(await readPostcondition(slots[0]!.apps[task.app], { family: task.family, postcondition: task.postcondition } as FamilyCondition)), String(seeded), `${task.condition_id}: worker 0's copy untouched`);
    for (const s of slots) await s.apps[task.app].reset();
  }
});
