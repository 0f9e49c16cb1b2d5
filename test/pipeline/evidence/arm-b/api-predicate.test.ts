// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The `api` leaf of a production predicate: a test on the JSON of the application's own API, and
// the labeler that fetches it in the manifest's session (cookies by path, extra headers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiUrls, evaluate, jsonPointer, type Predicate } from '../../../../pipeline/evidence/arm-b/predicate.ts';
import { labelManifest } from '../../../../pipeline/evidence/arm-b/labeler.ts';
import { cookieHeader, readSession } from '../../../../pipeline/evidence/arm-b/session.ts';
import type { ProductionManifest } from '../../../../pipeline/evidence/arm-b/manifest.ts';

test('JSON Pointer: objects, arrays, escapes, and nowhere', () => {
  const doc = { title: { raw: 'Single' }, 'a/b': 1, '~k': 2, list: [{ id: 'x' }] };
  assert.equal(jsonPointer(doc, '/title/raw'), 'Single');
  assert.equal(jsonPointer(doc, '/a~1b'), 1);
  assert.equal(jsonPointer(doc, '/~0k'), 2);
  assert.equal(jsonPointer(doc, '/list/0/id'), 'x');
  assert.equal(jsonPointer(doc, ''), doc);
  assert.equal(jsonPointer(doc, '/list/1'), undefined);
  assert.equal(jsonPointer(doc, '/list/01'), undefined);
  assert.equal(jsonPointer(doc, '/title/raw/x'), undefined);
});

test('an api clause holds on the item the API returns, and fails on a 404, a missing value, or a body that is not JSON', () => {
  const url = 'http://h:1/wp-json/wp/v2/templates/t//single';
  const p: Predicate = { all: [{ status: { equals: 200 } }, { api: { url, status: { equals: 200 }, pointer: '/title/raw', value: { equals: 'Single' } } }] };
  assert.deepEqual(apiUrls(p), [url]);
  const page = { status: 200, body: '<title>Editor</title>' };
  const found = evaluate(p, { ...page, api: { [url]: { status: 200, body: '{"id":"t//single","title":{"raw":"Single"}}' } } });
  assert.equal(found.holds, true);
  assert.match(found.clauses[1]!.clause, /^api http:\/\/h:1\/wp-json\/wp\/v2\/templates\/t\/\/single: status equals 200 and value at \/title\/raw equals "Single"$/);
  assert.equal(evaluate(p, { ...page, api: { [url]: { status: 404, body: '{"code":"rest_template_not_found"}' } } }).holds, false);
  assert.equal(evaluate(p, { ...page, api: { [url]: { status: 200, body: '{"title":{}}' } } }).holds, false);
  assert.equal(evaluate(p, { ...page, api: { [url]: { status: 200, body: '<html>' } } }).holds, false);
  assert.equal(evaluate(p, page).holds, false, 'an api URL that was not fetched never holds');
  // no pointer: the whole document, as JSON text (unescaped slashes)
  const list: Predicate = { api: { url, value: { contains: '"id":"t//single"' } } };
  assert.equal(evaluate(list, { ...page, api: { [url]: { status: 200, body: '[{"id":"t\\/\\/home"},{"id":"t\\/\\/single"}]' } } }).holds, true);
});

// A tiny app that answers only with the session's cookie, like a logged-in admin screen and its API.
let server: http.Server;
let origin = '';
let tmp = '';
let apiFinds = false;
const seen: Array<{ url: string; cookie?: string; nonce?: string }> = [];

before(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url!, cookie: req.headers.cookie, nonce: req.headers['x-nonce'] as string | undefined });
    const admin = (req.headers.cookie ?? '').includes('admin_cookie=sek-admin-7x');
    if (req.url?.startsWith('/admin/') && !admin) return res.writeHead(302, { location: '/login' }).end();
    if (req.url === '/login') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Log in</title>');
    if (req.url?.startsWith('/admin/editor')) return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Editor</title><div id="root"></div>');
    if (req.url?.startsWith('/api/items/')) {
      const ok = req.headers['x-nonce'] === 'sek-nonce-3z' && (req.headers.cookie ?? '').includes('site_cookie=sek-site-9y');
      if (!ok) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized"}');
      const id = req.url.slice('/api/items/'.length);
      if (id === 'one' || apiFinds) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, title: { raw: id } }));
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not_found"}');
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-session-'));
  fs.writeFileSync(path.join(tmp, 'session.json'), JSON.stringify({
    cookies: [{ name: 'admin_cookie', value: 'sek-admin-7x', path: '/admin' }, { name: 'site_cookie', value: 'sek-site-9y', path: '/' }],
    headers: { 'X-Nonce': 'sek-nonce-3z' },
  }));
});
after(() => { server.close(); delete process.env.ARM_B_SESSION; fs.rmSync(tmp, { recursive: true, force: true }); });

const manifest = (): ProductionManifest => ({
  schema: 'production-manifest/1', id: 'app', origin, repetitions: 1,
  session: { file: path.join(tmp, 'session.json') },
  cases: [
    { id: 'open-one', url: `${origin}/admin/editor?item=one`, kind: 'navigation', predicate: { all: [{ status: { equals: 200 } }, { title: { equals: 'Editor' } }, { api: { url: `${origin}/api/items/one`, status: { equals: 200 }, pointer: '/title/raw', value: { equals: 'one' } } }] } },
    { id: 'gone', url: `${origin}/admin/gone/`, kind: 'http-404', predicate: { status: { equals: 200 } } },
    { id: 'open-none', url: `${origin}/admin/editor?item=none`, kind: 'semantic-negative', predicate: { all: [{ status: { equals: 200 } }, { title: { equals: 'Editor' } }, { api: { url: `${origin}/api/items/none`, status: { equals: 200 }, pointer: '/title/raw', value: { equals: 'none' } } }] } },
  ],
});

test('cookies go by path, the headers always; a malformed or missing session file is refused', () => {
  const s = readSession(manifest())!;
  assert.equal(cookieHeader(s, `${origin}/admin/editor`), 'admin_cookie=sek-admin-7x; site_cookie=sek-site-9y');
  assert.equal(cookieHeader(s, `${origin}/administrator`), 'site_cookie=sek-site-9y', '/admin does not cover /administrator');
  assert.equal(cookieHeader(s, `${origin}/api/items/one`), 'site_cookie=sek-site-9y');
  assert.equal(readSession({ id: 'x' }), null, 'a manifest without a session needs none');
  assert.throws(() => readSession({ id: 'x', session: { file: path.join(tmp, 'nope.json') } }), /needs a logged-in session, and there is none/);
  fs.writeFileSync(path.join(tmp, 'bad.json'), '{"cookies": [{"name": 1}]}');
  assert.throws(() => readSession({ id: 'x', session: { file: path.join(tmp, 'bad.json') } }), /cookies/);
  process.env.ARM_B_SESSION = path.join(tmp, 'bad.json');
  try {
    assert.throws(() => readSession(manifest()), /cookies/, 'ARM_B_SESSION overrides the manifest');
  } finally {
    delete process.env.ARM_B_SESSION;
  }
});

test('the labeler fetches page and API in the session: success, 404 and a 200 whose API says the item does not exist', async () => {
  seen.length = 0;
  const { labels, mismatches } = await labelManifest(manifest());
  assert.deepEqual(mismatches, []);
  assert.deepEqual(labels.map((l) => [l.case_id, l.status, l.truth]), [['open-one', 200, 'success'], ['gone', 404, 'failure'], ['open-none', 200, 'failure']]);
  assert.deepEqual(labels[2]!.api!.map((a) => [a.url, a.status]), [[`${origin}/api/items/none`, 404]]);
  assert.equal(labels[1]!.api, undefined, 'no api clause, no api field');
  assert.ok(seen.every((s) => s.nonce === 'sek-nonce-3z'));
  assert.doesNotMatch(JSON.stringify(labels), /sek-/, 'no secret of the session in the labels');
  // without the session the admin screens redirect to a login page: the same sample, other labels
  const bare = { ...manifest(), session: undefined };
  const { mismatches: without } = await labelManifest(bare);
  assert.match(without.join('\n'), /open-one \(navigation/);
});

test('the labeler refuses a site whose API contradicts the manifest: the missing item exists', async () => {
  apiFinds = true;
  try {
    const { mismatches } = await labelManifest(manifest());
    assert.equal(mismatches.length, 1);
    assert.match(mismatches[0]!, /^open-none \(semantic-negative, .*\): expected a 2xx failure, got 200 success; .*✓ api/);
  } finally {
    apiFinds = false;
  }
});

test('a manifest whose api URL is off the origin, or whose api clause tests nothing, is refused', async () => {
  const { readManifest } = await import('../../../../pipeline/evidence/arm-b/manifest.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-api-manifest-'));
  const write = (api: object) => {
    const file = path.join(dir, 'm.json');
    fs.writeFileSync(file, JSON.stringify({
      schema: 'production-manifest/1', id: 'm', origin: 'http://127.0.0.1:9', repetitions: 1,
      cases: [{ id: 'a', url: 'http://127.0.0.1:9/x', kind: 'navigation', predicate: { api } }],
    }));
    return file;
  };
  try {
    assert.equal(readManifest(write({ url: 'http://127.0.0.1:9/api', status: { equals: 200 } })).cases.length, 1);
    assert.throws(() => readManifest(write({ url: 'http://127.0.0.1:10/api', status: { equals: 200 } })), /api URL http:\/\/127\.0\.0\.1:10\/api is not on the manifest's origin/);
    assert.throws(() => readManifest(write({ url: 'http://127.0.0.1:9/api' })), /predicate/);
    assert.throws(() => readManifest(write({ url: 'http://127.0.0.1:9/api', pointer: 'title', value: { equals: 'x' } })), /pointer|predicate/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
