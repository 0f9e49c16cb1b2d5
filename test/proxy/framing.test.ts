// Every answer the fault proxy makes itself is well-formed HTTP/1.1: its body's end is in the answer
// (a Content-Length that is the body's length, or chunked with its last chunk), never only the
// connection closing; and a write answered by the proxy's error page reaches its terminal event in
// both browsers (issue 48). Chromium emitted no `requestfinished` for that error page when the page
// did not read its body, so a verifier waiting on transport evidence saw it only at its own timeout,
// Firefox at once: not for its missing length but for its `Cache-Control: no-store` (Chromium 14x
// on Debian: an unread no-store answer to a fetch() never finishes; the same answer without it does).
//   raw: each error page (every transport fault of transport.json that answers), the success answer
//        of each kind (success.ts), a pop-up put into a document sent with a length and one sent
//        chunked; read off a socket the proxy keeps open, so only the framing can end the answer
//   browsers: a fetch() write the page never reads, answered by write-error, is `failed` by the
//        verifier's transport evidence (its terminal event arrived), in Chromium and Firefox
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { launchBrowser, browserNames } from '../../pipeline/browser/launch.ts';
import { startFaultProxy, transportTable } from '../../proxy/src/index.ts';
import { attach } from '../../verifier/src/index.ts';
import { startFormApp, formSpec, jsonSpec } from './form-app.ts';

interface Framed { status: number; head: string; framing: 'length' | 'chunked'; body: Buffer }

/**
 * One request through the proxy on a raw socket, read until its framing says the answer is complete.
 * An answer whose end only the connection closing can tell (no length, not chunked) rejects, as does
 * a length the body does not have.
 */
function framed(proxyPort: number, target: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Framed> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const body = init.body ?? '';
    const headers = { Host: url.host, ...(init.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...init.headers };
    const socket = net.connect(proxyPort, '127.0.0.1', () => {
      socket.write(`${init.method ?? 'GET'} ${target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`);
    });
    let got = Buffer.alloc(0);
    const finish = (result: Framed | Error) => { socket.destroy(); if (result instanceof Error) reject(result); else resolve(result); };
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.subarray(0, end).toString('latin1');
      const rest = got.subarray(end + 4);
      const status = Number(head.split(' ')[1]);
      const length = /^content-length:\s*(\d+)\s*$/im.exec(head);
      if (/^transfer-encoding:.*chunked/im.test(head)) {
        // chunks: size CRLF data CRLF … 0 CRLF CRLF
        const parts: Buffer[] = [];
        let at = 0;
        for (;;) {
          const line = rest.indexOf('\r\n', at);
          if (line < 0) return;
          const size = parseInt(rest.subarray(at, line).toString('latin1'), 16);
          if (rest.length < line + 2 + size + 2) return;
          if (size === 0) return finish({ status, head, framing: 'chunked', body: Buffer.concat(parts) });
          parts.push(rest.subarray(line + 2, line + 2 + size));
          at = line + 2 + size + 2;
        }
      }
      if (length) {
        const n = Number(length[1]);
        if (rest.length > n) return finish(new Error(`${target}: Content-Length ${n}, but ${rest.length} bytes of body arrived`));
        if (rest.length === n) finish({ status, head, framing: 'length', body: rest });
      }
    });
    socket.on('close', () => finish(new Error(`${target}: the connection closed before the answer's framing ended it (${JSON.stringify(got.toString('latin1').split('\r\n\r\n')[0])})`)));
    socket.on('error', (e) => finish(e));
  });
}

/** A page of the form app's spec, sent chunked (no Content-Length), as many apps send their pages. */
async function chunkedApp(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
    res.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Settings</title></head><body>');
    res.end('<form method="post" action="/save"><input type="submit" id="submit" value="Save Changes"></form></body></html>');
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'kind=settings&title=framed' };
const documentHeaders = { 'Sec-Fetch-Dest': 'document', Accept: 'text/html' };

test('every answer the proxy makes itself ends by its framing: error pages, success answers, injected pages', async (t) => {
  const app = await startFormApp();
  const chunked = await chunkedApp();
  const proxy = await startFaultProxy();
  t.after(async () => { await proxy.close(); await app.close(); await chunked.close(); });
  const load = (spec: unknown, transport?: { fault: string; severity: 1 | 2 | 3 }, layer: 'baseline' | 'state' = 'baseline') =>
    proxy.load({ spec: spec as never, layer, severity: layer === 'baseline' ? 0 : 1, seed: 'framing', ...(transport ? { transport: transport as never } : {}) });

  // every fault of the table that answers with an error page, at each severity whose effect is an answer
  const table = transportTable();
  const answering = Object.entries(table.faults).flatMap(([fault, entry]) =>
    entry.severities.flatMap((level, i) => (level.effect.answer ? [{ fault, severity: (i + 1) as 1 | 2 | 3, match: entry.match, k: level.fire.k }] : [])));
  assert.ok(answering.length > 0, 'the table has faults that answer');
  for (const { fault, severity, match, k } of answering) {
    await t.test(`${fault} at severity ${severity}: the error page`, async () => {
      load(formSpec, { fault, severity });
      const send = () => (match === 'write' ? framed(proxy.port, `${app.origin}/save`, form)
        : match === 'page' ? framed(proxy.port, `${app.origin}/form`, { headers: documentHeaders })
          : framed(proxy.port, `${app.origin}/app.js`));
      // every rule fires at the k-th matching request since load (kth, first k, each k-th); the ones
      // before it are the app's own answers, passed through, and must be framed too
      let got = await send();
      for (let n = 2; n <= k; n++) got = await send();
      assert.ok(got.status >= 400, `${fault}: status ${got.status}`);
      assert.match(got.body.toString('utf8'), /The server could not handle the request/);
      t.diagnostic(`${fault} ${severity}: ${got.status}, ${got.framing}, ${got.body.length} bytes`);
    });
  }

  await t.test('the success answers (state holds the write): redirect, json-echo and reply', async () => {
    load(formSpec, undefined, 'state');
    const redirect = await framed(proxy.port, `${app.origin}/save`, form);
    assert.equal(redirect.status, 302);
    assert.equal(redirect.body.length, 0);
    load(jsonSpec, undefined, 'state');
    const echo = await framed(proxy.port, `${app.origin}/api/post`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-HTTP-Method-Override': 'PUT' }, body: JSON.stringify({ title: 'Framed', status: 'publish' }) });
    assert.equal(echo.status, 200);
    assert.equal((JSON.parse(echo.body.toString('utf8')) as { title: { raw: string } }).title.raw, 'Framed');
    const reply = { ...formSpec, success: { kind: 'reply', status: 200, headers: { 'Content-Type': 'text/plain; charset=UTF-8' }, body: 'Saved “{{form.title}}”.' } };
    load(reply, undefined, 'state');
    const replied = await framed(proxy.port, `${app.origin}/save`, form);
    assert.equal(replied.body.toString('utf8'), 'Saved “framed”.');
  });

  await t.test('a pop-up put into a document sent with a length, and into one sent chunked', async () => {
    load(formSpec, { fault: 'popup', severity: 3 });
    const withLength = await framed(proxy.port, `${app.origin}/form`, { headers: documentHeaders });
    const fromChunked = await framed(proxy.port, `${chunked.origin}/form`, { headers: documentHeaders });
    for (const got of [withLength, fromChunked]) {
      assert.equal(got.status, 200);
      assert.match(got.body.toString('utf8'), /<\/html>$/, 'the whole document');
    }
    assert.equal(proxy.log.filter((e) => e.action === 'inject').length, 2, 'both documents got the pop-up');
    t.diagnostic(`pop-up pages: ${withLength.framing}, ${fromChunked.framing}`);
  });
});

for (const name of browserNames) {
  test(`${name}: a write the page never reads, answered by the proxy's error page, is failed by the verifier's transport evidence`, async (t) => {
    const app = await startFormApp();
    const proxy = await startFaultProxy();
    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url } });
    t.after(async () => { await browser.close(); await proxy.close(); await app.close(); });
    proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: `${name}-framing`, transport: { fault: 'write-error', severity: 3 } });
    const context = await browser.newContext();
    t.after(() => context.close());
    const page = await context.newPage();
    await page.goto(`${app.origin}/form`);
    const verifier = attach(page);
    const record = await verifier.verify({
      id: 'settings/save title (fetch)',
      // the page sends the write and never reads its answer: only the answer's framing can end it
      action: () => page.evaluate(() => { void fetch('/save', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'kind=settings&title=unread' }); }),
      request: { method: 'POST', path: '/save' },
      transport: { success: [[200, 399]], failure: [[400, 599]], networkError: 'failure' },
      semantic: { kind: 'dom', success: '#notice' },
      // far beyond any answer here: a record ended by it would be the fault this test is about
      timeoutMs: 60_000,
    });
    verifier.detach();
    const written = proxy.log.find((e) => e.write)!;
    assert.equal(written.action, 'failed');
    assert.equal(record.state, 'failed', record.reason ?? undefined);
    assert.match(record.reason ?? '', new RegExp(`completed with status ${written.status}, a failure under the contract`));
    assert.ok(record.timeline.some((e) => e.source === 'network' && e.type === 'finished'), `the request's requestfinished arrived: ${JSON.stringify(record.timeline.map((e) => e.type))}`);
    assert.equal(app.writes.length, 0, 'the write never reached the app');
  });
}
