// shares the machine: no browser; real HTTP on 127.0.0.1 (port 0), and what it asserts is order and content, never a duration.
// The fault proxy at the HTTP level: it listens on 127.0.0.1 alone, forwards to loopback alone,
// never lets a write through that the condition drops (at any concurrency, and after a reset),
// forwards a held write only later, injects the page fault into the spec's documents only (through
// gzip, under a CSP), adds no header, replays a seed exactly, and says when it or the app fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { startFaultProxy, planFor, ProxyError, type FaultProxy } from '../../proxy/src/index.ts';
import { allowScript } from '../../proxy/src/inject.ts';
import { tcpListeners } from '../../core/service.ts';
import { startFormApp, formSpec, jsonSpec, type FormApp } from './form-app.ts';
import { answered, direct, header, headerLines, viaProxy, type Got } from './via-proxy.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const form = (title: string) => new URLSearchParams({ kind: 'settings', title }).toString();
const postForm = (proxy: FaultProxy, app: FormApp, title: string) =>
  viaProxy(proxy.url, `${app.origin}/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form(title) });
const gunzipped = (got: Got) => (header(got, 'content-encoding') === 'gzip' ? zlib.gunzipSync(got.body) : got.body).toString('utf8');
/** headers that describe one connection, not the app's answer */
const hop = ['connection', 'keep-alive'];

async function withApp(t: { after: (fn: () => Promise<void>) => void }): Promise<FormApp> {
  const app = await startFormApp();
  t.after(() => app.close());
  return app;
}
async function withProxy(t: { after: (fn: () => Promise<void>) => void }, options = {}): Promise<FaultProxy> {
  const proxy = await startFaultProxy(options);
  t.after(() => proxy.close());
  return proxy;
}

test('it listens on 127.0.0.1 alone (/proc/net/tcp), and forwards to loopback alone: any other host, or the proxy itself, is closed', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  const listeners = tcpListeners().filter((l) => l.port === proxy.port);
  assert.deepEqual(listeners.map((l) => l.address), ['127.0.0.1'], `listeners on port ${proxy.port}: ${JSON.stringify(listeners)}`);
  assert.equal(listeners[0]!.pid, process.pid);
  assert.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(answered(await viaProxy(proxy.url, `${app.origin}/form`)).status, 200);
  assert.ok('closed' in (await viaProxy(proxy.url, 'http://example.invalid/')), 'another host: closed');
  assert.ok('closed' in (await viaProxy(proxy.url, `${proxy.url}/`)), 'the proxy itself: closed');
  assert.deepEqual(proxy.log.map((e) => [e.action, new URL(e.url).host]), [['pass', `127.0.0.1:${app.port}`], ['blocked', 'example.invalid'], ['blocked', `127.0.0.1:${proxy.port}`]]);
});

test('verification as the registered version 1 arms ran it (layers-v1.json): every write is answered with the spec\'s success and none reaches the app, with three proxies at once (one per worker)', async (t) => {
  const app = await withApp(t);
  const proxies = await Promise.all([1, 2, 3].map(() => withProxy(t, { layerTable: 'v1' })));
  for (const proxy of proxies) proxy.load({ spec: formSpec as never, layer: 'verification', severity: 2, seed: 'v' });
  const got = await Promise.all(proxies.flatMap((proxy, p) => [1, 2, 3, 4].map((i) => postForm(proxy, app, `dropped ${p}.${i}`))));
  for (const outcome of got) {
    const answer = answered(outcome);
    assert.equal(answer.status, 302);
    assert.equal(header(answer, 'location'), '/form?saved=1');
    assert.ok(header(answer, 'date'), 'a Date, as any server sends');
  }
  assert.equal(app.writes.length, 0, 'no write reached the app');
  assert.equal(app.requests.filter((r) => r.startsWith('POST')).length, 0);
  for (const proxy of proxies) {
    assert.deepEqual(proxy.log.map((e) => `${e.action} ${e.write} ${e.status}`), Array(4).fill('dropped true 302'));
    assert.equal(proxy.pendingWrites(), 0);
    assert.equal(proxy.failure, null);
  }
  // the same requests in baseline reach the app: the matcher, not a broken route, held them
  proxies[0]!.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'v' });
  assert.equal(answered(await postForm(proxies[0]!, app, 'passed')).status, 302);
  assert.deepEqual(app.writes.map((w) => w.title), ['passed']);
  assert.deepEqual(proxies[0]!.log.map((e) => `${e.action} ${e.write}`), ['pass true']);
});

test('state: the write is answered at once, reaches the app only when the proxy forwards it, and its log says when', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  proxy.load({ spec: formSpec as never, layer: 'state', severity: 1, seed: 's' });
  const hold = planFor({ spec: formSpec as never, layer: 'state', severity: 1, seed: 's' }).write!.forwardAfterMs!;
  assert.equal(answered(await postForm(proxy, app, 'late title')).status, 302);
  assert.equal(proxy.pendingWrites(), 1);
  assert.equal(app.writes.length, 0, 'answered, not yet at the app');
  // a request the spec does not call its write passes meanwhile
  assert.equal(answered(await viaProxy(proxy.url, `${app.origin}/other`)).status, 200);
  while (proxy.pendingWrites() > 0 || !proxy.log.some((e) => e.action === 'forwarded-late' && e.status !== null)) await sleep(50);
  const answeredEvent = proxy.log.find((e) => e.action === 'answered')!;
  const late = proxy.log.find((e) => e.action === 'forwarded-late')!;
  assert.deepEqual(app.writes.map((w) => w.title), ['late title']);
  assert.equal(late.of, answeredEvent.id);
  assert.equal(late.status, 302, "the app's own answer to the forwarded write");
  assert.equal(answeredEvent.forwardedAt, late.forwardedAt);
  assert.ok(late.forwardedAt! > answeredEvent.t && app.writes[0]!.t >= late.forwardedAt!, 'answered, then forwarded, then received by the app (one clock)');
  t.diagnostic(`held ${(late.forwardedAt! - answeredEvent.t).toFixed(1)} ms on the proxy's log (the table says ${hold} ms)`);
});

test('a reset cancels a held write: it never reaches the app, and the log it returns says so', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  proxy.load({ spec: formSpec as never, layer: 'state', severity: 1, seed: 's' });
  const hold = planFor({ spec: formSpec as never, layer: 'state', severity: 1, seed: 's' }).write!.forwardAfterMs!;
  answered(await postForm(proxy, app, 'never'));
  const log = await proxy.reset();
  assert.deepEqual(log.map((e) => e.action), ['answered', 'cancelled']);
  assert.equal(log[1]!.of, log[0]!.id);
  assert.deepEqual([proxy.pendingWrites(), proxy.log.length], [0, 0], 'nothing held, the log forgotten');
  await sleep(hold * 2); // past the moment it would have been forwarded
  assert.equal(app.writes.length, 0);
  assert.ok(!app.requests.some((r) => r.startsWith('POST')));
  // after the reset: pass-through
  answered(await postForm(proxy, app, 'after reset'));
  assert.deepEqual(app.writes.map((w) => w.title), ['after reset']);
});

test('verification, the seed\'s construct (layers.json): each save is answered as a success at once; the earlier saves never reach the app, the saves_required-th and later ones do, with the app\'s own answer', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  for (const severity of [1, 2, 3] as const) {
    proxy.load({ spec: formSpec as never, layer: 'verification', severity, seed: 'v' });
    const required = planFor({ spec: formSpec as never, layer: 'verification', severity, seed: 'v' }).write!.passFromSave!;
    app.writes.length = 0;
    for (let save = 1; save <= required + 1; save++) {
      const answer = answered(await postForm(proxy, app, `save ${save} at ${severity}`));
      assert.equal(answer.status, 302);
      assert.equal(header(answer, 'location'), '/form?saved=1', 'the same success whoever answered');
    }
    assert.deepEqual(app.writes.map((w) => w.title), [`save ${required} at ${severity}`, `save ${required + 1} at ${severity}`], `severity ${severity}: only from save ${required} on`);
    assert.deepEqual(proxy.log.filter((e) => e.write).map((e) => e.action), [...Array(required - 1).fill('dropped'), 'pass', 'pass']);
    assert.equal(proxy.pendingWrites(), 0);
    await proxy.reset();
  }
  // a load starts the count again: the first save of the next condition is answered and dropped
  proxy.load({ spec: formSpec as never, layer: 'verification', severity: 1, seed: 'v' });
  app.writes.length = 0;
  answered(await postForm(proxy, app, 'first again'));
  assert.deepEqual(app.writes, []);
});

test('json-echo: the write is answered with a GET of its URL (no method override) and its own fields laid over; the write never reaches the app', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  proxy.load({ spec: jsonSpec as never, layer: 'verification', severity: 1, seed: 'j' });
  const got = answered(await viaProxy(proxy.url, `${app.origin}/api/post?_locale=user`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-HTTP-Method-Override': 'PUT', Cookie: 'session=abc' },
    body: JSON.stringify({ title: 'Published title', status: 'publish' }),
  }));
  assert.equal(got.status, 200);
  assert.deepEqual(JSON.parse(got.body.toString('utf8')), { id: 1, title: { raw: 'Published title' }, status: 'publish', context: 'edit' });
  assert.equal(header(got, 'x-wp-total'), '1', "the app's own headers, from its GET");
  assert.equal(Number(header(got, 'content-length')), got.body.length);
  assert.deepEqual(app.requests, ['GET /api/post?_locale=user&context=edit'], 'one GET, the write never');
  assert.deepEqual(app.post, { id: 1, title: { raw: 'Draft title' }, status: 'draft' });
  // a JSON write the spec does not name (a draft save) passes
  answered(await viaProxy(proxy.url, `${app.origin}/api/post`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'Autosave', status: 'draft' }) }));
  assert.equal(app.post.title.raw, 'Autosave');
});

test('the page fault goes into the spec\'s documents only, gzip re-encoded, with the app\'s headers but Content-Length; other responses are the app\'s, byte for byte, and no header is added', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  const gzip = { 'Accept-Encoding': 'gzip', Accept: 'text/html' };
  const before = { page: answered(await direct(`${app.origin}/form`, { headers: gzip })), other: answered(await direct(`${app.origin}/other`, { headers: gzip })) };
  proxy.load({ spec: formSpec as never, layer: 'action', severity: 2, seed: 'a' });
  const page = answered(await viaProxy(proxy.url, `${app.origin}/form`, { headers: { ...gzip, 'Sec-Fetch-Dest': 'document' } }));
  const other = answered(await viaProxy(proxy.url, `${app.origin}/other`, { headers: { ...gzip, 'Sec-Fetch-Dest': 'document' } }));
  const fetched = answered(await viaProxy(proxy.url, `${app.origin}/form`, { headers: { ...gzip, 'Sec-Fetch-Dest': 'empty' } }));

  assert.equal(header(page, 'content-encoding'), 'gzip', 'encoded again as the app encoded it');
  assert.equal(Number(header(page, 'content-length')), page.body.length);
  assert.deepEqual(headerLines(page, ['content-length', ...hop]), headerLines(before.page, ['content-length', ...hop]), 'the same headers, in the same order and case');
  const html = gunzipped(page);
  const original = gunzipped(before.page);
  const script = /<script>(\(function \(fault\)[\s\S]*?)<\/script>/.exec(html);
  assert.ok(script, 'the page fault is in the document');
  assert.equal(html.replace(script[0], ''), original, 'and nothing else changed');
  assert.ok(html.indexOf(script[0]) > html.indexOf('<meta charset="utf-8">'), 'after the early <meta charset>');
  const settings = JSON.parse(/\}\)\((\{.*\})\);$/.exec(script[1]!)![1]!);
  assert.deepEqual(settings, { selector: '#submit', name: 'Save Changes', hideMs: 0, decoys: 0, decoysBefore: 0, swallow: 2 }, 'the page is told the fault, never the condition (layer, severity, seed)');
  assert.deepEqual(other.body, before.other.body, 'a page the spec does not name is the app\'s');
  assert.equal(gunzipped(fetched), original, 'a fetch() of the page (not a document load) is not injected');
  assert.deepEqual(headerLines(other, hop), headerLines(before.other, hop), 'no header added');
  assert.deepEqual(proxy.log.map((e) => e.action), ['inject', 'pass', 'pass']);
});

test('a document of the spec\'s pages is fetched from the app in full, in every layer (its validators dropped), so that no copy cached under another condition is revalidated; other requests keep theirs', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  const conditional = { 'If-None-Match': '"v1"', 'If-Modified-Since': 'Wed, 02 Dec 2026 00:00:00 GMT' };
  for (const layer of ['baseline', 'action'] as const) {
    proxy.load({ spec: formSpec as never, layer, severity: layer === 'baseline' ? 0 : 1, seed: 'c' });
    app.headers.length = 0;
    answered(await viaProxy(proxy.url, `${app.origin}/form`, { headers: { ...conditional, 'Sec-Fetch-Dest': 'document' } }));
    answered(await viaProxy(proxy.url, `${app.origin}/other`, { headers: { ...conditional, 'Sec-Fetch-Dest': 'document' } }));
    assert.deepEqual(app.headers.map((h) => [h['if-none-match'], h['if-modified-since']]), [[undefined, undefined], [conditional['If-None-Match'], conditional['If-Modified-Since']]], layer);
  }
  // in baseline the document is the app's: its bytes, its headers in their order and case
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'c' });
  const gzip = { 'Accept-Encoding': 'gzip', 'Sec-Fetch-Dest': 'document' };
  const [through, straight] = [answered(await viaProxy(proxy.url, `${app.origin}/form`, { headers: gzip })), answered(await direct(`${app.origin}/form`, { headers: gzip }))];
  assert.deepEqual(through.body, straight.body);
  assert.deepEqual(headerLines(through, hop), headerLines(straight, hop));
});

test('under a CSP the script carries the page\'s nonce; a policy without one gets the script\'s hash, and only where it needs it', async (t) => {
  const app = await withApp(t);
  const proxy = await withProxy(t);
  proxy.load({ spec: formSpec as never, layer: 'action', severity: 1, seed: 'c' });
  const page = answered(await viaProxy(proxy.url, `${app.origin}/csp-form`, { headers: { 'Sec-Fetch-Dest': 'document' } }));
  const policy = header(page, 'content-security-policy')!;
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
  assert.match(page.body.toString('utf8'), new RegExp(`<script nonce="${nonce}">\\(function \\(fault\\)`));
  assert.doesNotMatch(policy, /sha256/, 'the nonce suffices: the policy is the app\'s');
  const hash = 'abc=';
  assert.equal(allowScript("script-src 'self'; object-src 'none'", undefined, hash), "script-src 'self' 'sha256-abc='; object-src 'none'");
  assert.equal(allowScript("default-src 'self'", undefined, hash), "default-src 'self'; script-src 'self' 'sha256-abc='", 'a script-src of its own: styles keep default-src');
  assert.equal(allowScript("script-src 'self' 'unsafe-inline'", undefined, hash), "script-src 'self' 'unsafe-inline'", "'unsafe-inline' lets it in as it is");
  assert.equal(allowScript("script-src 'nonce-x' 'unsafe-inline'", undefined, hash), "script-src 'nonce-x' 'unsafe-inline' 'sha256-abc='", 'a nonce switches unsafe-inline off');
  assert.equal(allowScript("img-src 'self'", undefined, hash), "img-src 'self'", 'no script directive: unchanged');
});

test('a seed replays exactly: two proxies at once serve the same page fault; the settings are the plan\'s', async (t) => {
  const app = await withApp(t);
  const [a, b] = await Promise.all([withProxy(t), withProxy(t)]);
  const condition = { spec: formSpec as never, layer: 'perception' as const, severity: 3 as const, seed: 'replay-7' };
  a.load(condition);
  b.load(condition);
  const headers = { 'Sec-Fetch-Dest': 'document' };
  const [one, two] = await Promise.all([viaProxy(a.url, `${app.origin}/form`, { headers }), viaProxy(b.url, `${app.origin}/form`, { headers })]);
  assert.deepEqual(answered(one).body, answered(two).body);
  const plan = planFor(condition);
  assert.match(answered(one).body.toString('utf8'), new RegExp(`"decoys":3,"decoysBefore":${plan.page!.decoysBefore}`));
});

test('failures: an app that does not answer is a ProxyError (app), the proxy fails closed, alive() says so; a closed proxy is not alive', async (t) => {
  const app = await startFormApp();
  const proxy = await withProxy(t);
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'f' });
  assert.equal(await proxy.alive(), true);
  const origin = app.origin;
  await app.close();
  assert.ok('closed' in (await viaProxy(proxy.url, `${origin}/form`)), 'the browser sees a connection failure, as without a proxy (no 502 page of the proxy\'s)');
  while (!proxy.failure) await sleep(20);
  assert.ok(proxy.failure instanceof ProxyError);
  assert.equal(proxy.failure.reason, 'app');
  assert.match(proxy.failure.message, /did not answer/);
  assert.equal(await proxy.alive(), false, 'a failed condition is not alive');
  await proxy.reset();
  assert.equal(proxy.failure, null, 'a reset starts the next condition clean');
  assert.equal(await proxy.alive(), true);
  await proxy.close();
  assert.equal(await proxy.alive(), false);
});
