// shares the machine: no browser; real HTTP on 127.0.0.1 (port 0), and what it asserts is content and order, never a duration.
// The proxy's own HAR (issue 51): what the browser sent and was answered in one condition, the same
// whoever answered it (the app, or the proxy holding the write), with the write's fields kept and
// the trimmed parts trimmed (HTML bodies, secret header values); a load starts a new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFaultProxy } from '../../proxy/src/index.ts';
import { startFormApp, formSpec, jsonSpec } from './form-app.ts';
import { answered, viaProxy } from './via-proxy.ts';

test('a condition\'s HAR: a page, a write the app answered, a write the proxy answered and dropped; bodies trimmed, secrets redacted', async (t) => {
  const app = await startFormApp();
  const proxy = await startFaultProxy({ har: true });
  t.after(async () => { await proxy.close(); await app.close(); });
  const form = (title: string) => new URLSearchParams({ kind: 'settings', title }).toString();
  const post = (title: string) => viaProxy(proxy.url, `${app.origin}/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: 'wordpress_logged_in=secret-session' }, body: form(title) });

  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'h' });
  answered(await viaProxy(proxy.url, `${app.origin}/form`));
  answered(await post('stored'));
  const first = (await proxy.takeHar())!;
  assert.deepEqual(first.log.entries.map((e) => [e.request.method, new URL(e.request.url).pathname, e.response.status]), [['GET', '/form', 200], ['POST', '/save', 302]]);
  const [page, write] = first.log.entries;
  assert.equal(page!.response.content.text, undefined, 'the HTML body is trimmed');
  assert.ok(page!.response.content.size > 0, 'its size is kept');
  assert.equal(write!.request.postData!.text, form('stored'), 'the write\'s fields as sent');
  assert.equal(write!.response.redirectURL, '/form?saved=1');
  assert.equal(write!.request.headers.find((h) => h.name === 'Cookie')!.value, '[redacted]');
  assert.deepEqual(first.log.entries.map((e) => e._write ?? false), [false, true], 'the proxy\'s own matcher marks the write');
  assert.deepEqual((await proxy.takeHar())!.log.entries, [], 'a take starts again empty');

  // verification: the proxy answers and drops the write; the HAR shows what the browser saw, the same 302
  proxy.load({ spec: formSpec as never, layer: 'verification', severity: 1, seed: 'h' });
  answered(await post('never stored'));
  const dropped = (await proxy.takeHar())!.log.entries;
  assert.deepEqual(dropped.map((e) => [e.request.method, e.response.status, e.response.redirectURL, e._write]), [['POST', 302, '/form?saved=1', true]]);
  assert.equal(app.writes.map((w) => w.title).includes('never stored'), false);

  // a JSON answer is small and kept; a load forgets what came before it
  proxy.load({ spec: jsonSpec as never, layer: 'baseline', severity: 0, seed: 'h' });
  answered(await viaProxy(proxy.url, `${app.origin}/other`));
  proxy.load({ spec: jsonSpec as never, layer: 'baseline', severity: 0, seed: 'h' });
  answered(await viaProxy(proxy.url, `${app.origin}/api/post?context=edit`));
  const json = (await proxy.takeHar())!.log.entries;
  assert.equal(json.length, 1, 'the load before it started a new HAR');
  assert.equal(JSON.parse(json[0]!.response.content.text!).title.raw, 'Draft title');
});

test('without the har option there is none', async (t) => {
  const proxy = await startFaultProxy();
  t.after(() => proxy.close());
  assert.equal(await proxy.takeHar(), null);
});
