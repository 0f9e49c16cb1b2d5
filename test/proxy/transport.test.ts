// shares the machine: no browser; real HTTP on 127.0.0.1 (port 0), and what it asserts is order and content, never a duration.
// The fault proxy's transport faults at the HTTP level: WAREX's firing rules, each effect on the
// request it fires at and on no other (an error answered with the write never reaching the app; the
// write committed and its answer lost; a delay that passes; a pop-up in the document), the counts
// forgotten on load, a compound condition's two layers, and the seed's draw replayed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFaultProxy, planFor, layerTable, transportPlanFor, transportTable, fires, transportFaultNames, type FaultProxy } from '../../proxy/src/index.ts';
import { ValidationError } from '../../proxy/src/index.ts';
import type { FaultTransport } from '../../proxy/src/index.ts';
import { startFormApp, formSpec, type FormApp } from './form-app.ts';
import { answered, viaProxy } from './via-proxy.ts';

const form = (title: string) => new URLSearchParams({ kind: 'settings', title }).toString();
const postForm = (proxy: FaultProxy, app: FormApp, title: string) =>
  viaProxy(proxy.url, `${app.origin}/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form(title) });
const getPage = (proxy: FaultProxy, app: FormApp) => viaProxy(proxy.url, `${app.origin}/form`, { headers: { 'Sec-Fetch-Dest': 'document' } });
const getAsset = (proxy: FaultProxy, app: FormApp, file: string) => viaProxy(proxy.url, `${app.origin}/${file}`, { headers: { 'Sec-Fetch-Dest': file.endsWith('.css') ? 'style' : 'script' } });

/** The record's table with its waits shortened (the effects and firing rules as they are). */
function shortTable(): FaultTransport {
  const table = structuredClone(transportTable());
  for (const fault of Object.values(table.faults)) {
    for (const s of fault.severities) {
      if (s.effect.answer && s.effect.answer.delay_ms > 0) s.effect.answer.delay_ms = 150;
      if (s.effect.delay) s.effect.delay.delay_ms = 150;
      if (s.effect.lose?.how === 'timeout') s.effect.lose.hold_ms = 300;
    }
  }
  return table;
}

async function setUp(t: { after: (fn: () => Promise<void>) => void }): Promise<{ app: FormApp; proxy: FaultProxy }> {
  const app = await startFormApp();
  const proxy = await startFaultProxy({ transportTable: shortTable() });
  t.after(async () => { await proxy.close(); await app.close(); });
  return { app, proxy };
}

test("WAREX's firing rules: the k-th only, the first k, each k-th", () => {
  const on = (rule: 'kth' | 'first' | 'every', k: number) => [1, 2, 3, 4, 5, 6].filter((n) => fires({ rule, k }, n));
  assert.deepEqual(on('kth', 2), [2]);
  assert.deepEqual(on('first', 2), [1, 2]);
  assert.deepEqual(on('every', 2), [2, 4, 6]);
  assert.deepEqual(on('every', 1), [1, 2, 3, 4, 5, 6]);
  assert.equal(fires({ rule: 'first', k: 3 }, 0), false, 'no request, nothing fires');
});

test('every transport fault at every severity has a plan; a drawn status is one of its list and the same for the same seed', () => {
  for (const fault of transportFaultNames()) {
    for (const severity of [1, 2, 3] as const) {
      const plan = transportPlanFor({ fault, severity }, 'seed-a', 'test-form-title');
      assert.equal(plan.match, transportTable().faults[fault]!.match);
      const spec = transportTable().faults[fault]!.severities[severity - 1]!.effect;
      if (plan.effect.kind === 'answer') assert.ok(spec.answer!.statuses.includes(plan.effect.status), `${fault} ${severity}: ${plan.effect.status}`);
      assert.deepEqual(transportPlanFor({ fault, severity }, 'seed-a', 'test-form-title'), plan, `${fault} ${severity}: replayed`);
    }
  }
  const drawn = new Set(Array.from({ length: 40 }, (_, i) => (transportPlanFor({ fault: 'write-error', severity: 1 }, `seed-${i}`, 'f').effect as { status: number }).status));
  assert.ok(drawn.size > 1, `forty seeds draw more than one status: ${[...drawn]}`);
  assert.throws(() => transportPlanFor({ fault: 'dns' as never, severity: 1 }, 's', 'f'), (e: unknown) => e instanceof ValidationError && /transport\.fault/.test(e.message));
  assert.throws(() => transportPlanFor({ fault: 'popup', severity: 4 as never }, 's', 'f'), (e: unknown) => e instanceof ValidationError && /transport\.severity/.test(e.message));
});

test("a compound condition: both layers' page faults, one write rule, the decoys drawn as the perception layer alone draws them; contradictions refused", () => {
  const spec = formSpec as never;
  const accessState = planFor({ spec, layer: 'access', severity: 1, seed: 's', also: { layer: 'state', severity: 2 } });
  assert.equal(accessState.page!.hideMs, planFor({ spec, layer: 'access', severity: 1, seed: 's' }).page!.hideMs);
  assert.deepEqual(accessState.write, planFor({ spec, layer: 'state', severity: 2, seed: 's' }).write);
  const pv = planFor({ spec, layer: 'verification', severity: 1, seed: 's', also: { layer: 'perception', severity: 3 } });
  const alone = planFor({ spec, layer: 'perception', severity: 3, seed: 's' });
  assert.deepEqual([pv.page!.decoys, pv.page!.decoysBefore], [alone.page!.decoys, alone.page!.decoysBefore]);
  // the write rule is the verification layer's alone, in either table: the registered transport arm's (v1: never
  // forwarded) and the one in force (the seed's construct: the second save passes at severity 1)
  assert.deepEqual(pv.write, planFor({ spec, layer: 'verification', severity: 1, seed: 's' }).write);
  assert.deepEqual(pv.write, { forwardAfterMs: null, passFromSave: 2 });
  assert.deepEqual(planFor({ spec, layer: 'verification', severity: 1, seed: 's', also: { layer: 'perception', severity: 3 } }, layerTable('v1')).write, { forwardAfterMs: null, passFromSave: null });
  assert.throws(() => planFor({ spec, layer: 'state', severity: 1, seed: 's', also: { layer: 'verification', severity: 1 } }), (e: unknown) => e instanceof ValidationError && /both answer the write/.test(e.message));
  assert.throws(() => planFor({ spec, layer: 'access', severity: 1, seed: 's', also: { layer: 'access', severity: 2 } }), ValidationError);
  assert.throws(() => planFor({ spec, layer: 'baseline', severity: 0, seed: 's', also: { layer: 'access', severity: 2 } }), ValidationError);
});

test('write-error: the first write is answered with the drawn error and never reaches the app; the second passes', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'w', transport: { fault: 'write-error', severity: 1 } });
  const status = (transportPlanFor({ fault: 'write-error', severity: 1 }, 'w', formSpec.family).effect as { status: number }).status;
  const first = answered(await postForm(proxy, app, 'first try'));
  assert.equal(first.status, status);
  assert.match(first.body.toString('utf8'), /could not handle the request/);
  assert.equal(app.writes.length, 0, 'the failed write never reached the app');
  assert.equal(answered(await postForm(proxy, app, 'second try')).status, 302);
  assert.deepEqual(app.writes.map((w) => w.title), ['second try']);
  assert.deepEqual(proxy.log.map((e) => [e.action, e.write, e.status, e.transport?.n ?? null]), [['failed', true, status, 1], ['pass', true, 302, null]]);
});

test('lost-response (reset): the write reaches the app and commits, and the browser gets a reset connection; the next write is answered', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'l', transport: { fault: 'lost-response', severity: 1 } });
  const lost = await postForm(proxy, app, 'committed, answer lost');
  assert.ok('closed' in lost, `the answer never came: ${JSON.stringify(lost)}`);
  assert.deepEqual(app.writes.map((w) => w.title), ['committed, answer lost'], 'the app has the write');
  assert.equal(answered(await postForm(proxy, app, 'again')).status, 302);
  assert.deepEqual(app.writes.map((w) => w.title), ['committed, answer lost', 'again'], 'a second write is a second write: the app counts two');
  const [first, second] = proxy.log;
  assert.deepEqual([first!.action, first!.status, first!.appStatus, first!.error, first!.transport], ['lost', null, 302, 'lost: reset', { fault: 'lost-response', match: 'write', n: 1, effect: 'lose' }]);
  assert.deepEqual([second!.action, second!.status], ['pass', 302]);
  // GETs are not the write: they pass, counted by no one
  assert.equal(answered(await getPage(proxy, app)).status, 200);
});

test('lost-response (timeout) at severity 2: held open with nothing sent, then closed; the app has the write', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'l2', transport: { fault: 'lost-response', severity: 2 } });
  const lost = await postForm(proxy, app, 'held');
  assert.ok('closed' in lost);
  assert.equal(app.writes.length, 1);
  assert.match(proxy.log[0]!.detail!, /lost \(timeout after 300 ms\)/);
});

test('lost-response on top of State: the layer holds the write and its answer is lost; the held write still reaches the app later', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'state', severity: 1, seed: 'ls', transport: { fault: 'lost-response', severity: 1 } });
  const lost = await postForm(proxy, app, 'late and lost');
  assert.ok('closed' in lost);
  assert.equal(app.writes.length, 0, 'not yet: State holds it');
  assert.equal(proxy.pendingWrites(), 1);
  while (!proxy.log.some((e) => e.action === 'forwarded-late' && e.status !== null)) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(app.writes.map((w) => w.title), ['late and lost']);
  assert.deepEqual(proxy.log.map((e) => e.action), ['answered', 'forwarded-late']);
  assert.equal(proxy.log[0]!.error, 'lost: reset');
});

test('document-error: the first load of a page is held, then answered with an error page, never reaching the app; the reload is the app\'s', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'd', transport: { fault: 'document-error', severity: 1 } });
  const failed = answered(await getPage(proxy, app));
  assert.equal(failed.status, 503);
  assert.doesNotMatch(failed.body.toString('utf8'), /General Settings/);
  assert.equal(app.requests.filter((r) => r.startsWith('GET /form')).length, 0);
  const page = answered(await getPage(proxy, app));
  assert.equal(page.status, 200);
  assert.match(page.body.toString('utf8'), /General Settings/);
  // a load again starts the count again
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'd', transport: { fault: 'document-error', severity: 1 } });
  assert.equal(answered(await getPage(proxy, app)).status, 503, 'counted from 1 after load');
});

test('asset-error: counted per URL, so the first load of each script and stylesheet fails and the second passes, in any order', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'a', transport: { fault: 'asset-error', severity: 1 } });
  const statuses = [];
  for (const file of ['app.js', 'app.css', 'app.js', 'app.css']) statuses.push(answered(await getAsset(proxy, app, file)).status);
  assert.deepEqual(statuses, [504, 504, 200, 200]);
  assert.deepEqual(app.requests.filter((r) => r.startsWith('GET /app.')), ['GET /app.js', 'GET /app.css']);
  assert.equal(answered(await getPage(proxy, app)).status, 200, 'a document is no asset');
});

test('asset-error at severity 2: each asset delayed, then passed', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'a2', transport: { fault: 'asset-error', severity: 2 } });
  assert.equal(answered(await getAsset(proxy, app, 'app.js')).status, 200);
  assert.deepEqual(proxy.log.map((e) => [e.action, e.transport?.effect]), [['pass', 'delay']]);
});

test('popup: the first document gets the pop-up in its page-fault script, the second none; the app answers both', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'p', transport: { fault: 'popup', severity: 1 } });
  const first = answered(await getPage(proxy, app)).body.toString('utf8');
  const second = answered(await getPage(proxy, app)).body.toString('utf8');
  assert.match(first, /"popup":\{"title":"Your session is about to expire","button":"Continue"\}/);
  assert.match(first, /"decoysBefore":0/, 'the settings of the page-fault script');
  assert.doesNotMatch(second, /decoysBefore/, 'baseline, no pop-up: no page-fault script in the second document');
  assert.deepEqual(proxy.log.map((e) => [e.action, e.transport?.fault ?? null]), [['inject', 'popup'], ['pass', null]]);
  assert.equal(app.requests.filter((r) => r.startsWith('GET /form')).length, 2);
});

test('a malformed transport table is refused at start, naming the field', async () => {
  const table = structuredClone(transportTable()) as unknown as { faults: Record<string, { severities: unknown[] }> };
  table.faults['popup']!.severities = [];
  await assert.rejects(startFaultProxy({ transportTable: table as never }), (e: unknown) => e instanceof ValidationError && /severities/.test(e.message));
});

test('a request held by a fault past the end of its condition is closed and lands in no log', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'r', transport: { fault: 'document-error', severity: 1 } });
  const held = getPage(proxy, app); // to be held 150 ms by the short table, then answered 503
  while (proxy.heldByTransport() === 0) await new Promise((r) => setTimeout(r, 5)); // until the proxy holds it
  const forgotten = await proxy.reset();
  assert.deepEqual(forgotten, [], 'nothing was logged while it was held');
  assert.ok('closed' in (await held), 'closed, not answered');
  assert.deepEqual(proxy.log, [], 'the next condition\'s log holds nothing of it');
  assert.equal(app.requests.length, 0, 'it never reached the app');
});
