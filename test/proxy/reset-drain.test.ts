// shares the machine: no browser; real HTTP on 127.0.0.1 (port 0), and what it asserts is order and content, never a duration.
// The held-write race (issue 47, item 3): a write the proxy forwards late (State) or passes through
// can still be at the app when the harness resets the proxy and restores the app for the next
// condition. reset() resolves only once every such write has its answer, so that a restore made
// after it is never overwritten: the next condition starts from the seeded state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFaultProxy, ProxyError, type FaultProxy } from '../../proxy/src/index.ts';
import { formSpec } from './form-app.ts';
import { answered, viaProxy } from './via-proxy.ts';

const SEEDED = 'Original title';

/** An app whose store commits a write only when the test releases it: the write is "at the app" until then. */
interface SlowApp {
  origin: string;
  title: string;
  /** resolves when a write has arrived at the app (it is then held, uncommitted) */
  arrived(): Promise<void>;
  /** commits the held write and answers it; resolves once it is committed */
  release(): Promise<void>;
  /** the harness's restore to the seeded state */
  restore(): void;
  close(): Promise<void>;
}

async function startSlowApp(): Promise<SlowApp> {
  let arrive: () => void = () => undefined;
  let arrivedP = new Promise<void>((r) => { arrive = r; });
  let held: { title: string; res: http.ServerResponse } | null = null;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') { res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '2' }); res.end('ok'); return; }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      held = { title: new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('title') ?? '', res };
      arrive();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const app: SlowApp = {
    origin: `http://127.0.0.1:${port}`,
    title: SEEDED,
    arrived: () => arrivedP,
    async release() {
      const write = held!;
      held = null;
      arrivedP = new Promise<void>((r) => { arrive = r; });
      app.title = write.title; // committed before the answer leaves, as a PHP app's database write is
      write.res.writeHead(302, { Location: '/form?saved=1', 'Content-Length': '0' });
      write.res.end();
    },
    restore() { app.title = SEEDED; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  return app;
}

const post = (proxy: FaultProxy, app: SlowApp, title: string) =>
  viaProxy(proxy.url, `${app.origin}/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ kind: 'settings', title }).toString() });

async function setUp(t: { after: (fn: () => Promise<void>) => void }, options = {}) {
  const app = await startSlowApp();
  const proxy = await startFaultProxy(options);
  t.after(async () => { await proxy.close(); await app.close(); });
  return { app, proxy };
}

test('a State write forwarded just before the reset: reset resolves only after the app has it, so the restore that follows wins', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'state', severity: 1, seed: 'race' });
  assert.equal(answered(await post(proxy, app, 'late write')).status, 302, 'answered by the proxy at once');
  await app.arrived(); // the proxy's timer forwarded it: it is at the app, not committed
  assert.equal(proxy.pendingWrites(), 0, 'no longer held: on its way');
  assert.equal(proxy.writesAtApp(), 1);

  const order: string[] = [];
  // the harness: reset the proxy, then restore the app for the next condition
  const nextCondition = proxy.reset().then((log) => { order.push('reset resolved'); app.restore(); return log; });
  await new Promise((r) => setImmediate(r));
  order.push('app commits');
  await app.release();
  const log = await nextCondition;

  assert.deepEqual(order, ['app commits', 'reset resolved'], 'the reset waited for the write at the app');
  assert.equal(app.title, SEEDED, 'the next condition starts from the seeded state');
  assert.deepEqual(log.map((e) => e.action), ['answered', 'forwarded-late'], 'the log it returns has the write and its forwarding, nothing cancelled');
  assert.equal(proxy.writesAtApp(), 0);
});

test('a write passed through and still at the app at the reset is waited for too', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'race' });
  const sent = post(proxy, app, 'passed');
  await app.arrived();
  assert.equal(proxy.writesAtApp(), 1);
  const order: string[] = [];
  const nextCondition = proxy.reset().then(() => { order.push('reset resolved'); app.restore(); });
  await new Promise((r) => setImmediate(r));
  order.push('app commits');
  await app.release();
  await nextCondition;
  assert.equal(answered(await sent).status, 302, 'the browser got the app\'s own answer');
  assert.deepEqual(order, ['app commits', 'reset resolved']);
  assert.equal(app.title, SEEDED);
});

test('a write that never gets its answer: reset rejects after its limit, naming the write, rather than let a restore race it', async (t) => {
  const { app, proxy } = await setUp(t, { drainLimitMs: 300 });
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'race' });
  const sent = post(proxy, app, 'stuck');
  await app.arrived();
  await assert.rejects(proxy.reset(), (e: unknown) => e instanceof ProxyError && e.reason === 'app' && /1 write still on the way to the app/.test(e.message) && e.message.includes('/save'));
  await app.release(); // the app answers in the end; the next reset has nothing to wait for
  await sent;
  assert.deepEqual(await proxy.reset(), []);
  assert.equal(proxy.writesAtApp(), 0);
});

test('a held write a reset cancels was never on its way: the reset does not wait, and the app never sees it', async (t) => {
  const { app, proxy } = await setUp(t);
  proxy.load({ spec: formSpec as never, layer: 'state', severity: 3, seed: 'race' });
  assert.equal(answered(await post(proxy, app, 'cancelled')).status, 302);
  assert.equal(proxy.writesAtApp(), 0);
  const log = await proxy.reset();
  assert.deepEqual(log.map((e) => e.action), ['answered', 'cancelled']);
  assert.equal(app.title, SEEDED);
});
