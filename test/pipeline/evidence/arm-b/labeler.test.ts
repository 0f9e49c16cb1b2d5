// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchDirect, labelManifest, kindMismatch, RefusedRequest } from '../../../../pipeline/evidence/arm-b/labeler.ts';
import type { ProductionManifest } from '../../../../pipeline/evidence/arm-b/manifest.ts';

// A tiny site on loopback: a page, a 404, a search that finds nothing, a redirect on the origin and
// redirects off it (to another loopback server, which counts what reaches it).
let site: http.Server;
let other: http.Server;
let origin = '';
let otherOrigin = '';
const otherHits: string[] = [];
const siteHits: string[] = [];

const listen = (s: http.Server) => new Promise<string>((resolve) => s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));

before(async () => {
  other = http.createServer((req, res) => { otherHits.push(req.url!); res.end('other'); });
  otherOrigin = await listen(other);
  site = http.createServer((req, res) => {
    siteHits.push(`${req.method} ${req.url}`);
    const html = (title: string, body: string) => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
    if (req.url === '/post/') return res.writeHead(200, { 'content-type': 'text/html' }).end(html('A post – Site', '<p>The post text.</p>'));
    if (req.url === '/moved') return res.writeHead(301, { location: '/post/' }).end();
    if (req.url === '/away') return res.writeHead(302, { location: `${otherOrigin}/stolen` }).end();
    if (req.url?.startsWith('/?s=')) return res.writeHead(200, { 'content-type': 'text/html' }).end(html('Search – Site', '<h1>Search results for: x</h1><p>Sorry, but nothing matched your search terms.</p>'));
    res.writeHead(404, { 'content-type': 'text/html' }).end(html('Page not found – Site', '<p>This page could not be found.</p>'));
  });
  origin = await listen(site);
});
after(() => { site.close(); other.close(); });

const manifest = (): ProductionManifest => ({
  schema: 'production-manifest/1',
  id: 'tiny',
  origin,
  repetitions: 1,
  cases: [
    { id: 'nav', url: `${origin}/moved`, kind: 'navigation', predicate: { all: [{ status: { equals: 200 } }, { title: { contains: 'A post' } }, { text: { contains: 'The post text.' } }] } },
    { id: 'gone', url: `${origin}/gone/`, kind: 'http-404', predicate: { all: [{ status: { equals: 200 } }, { title: { contains: 'Gone' } }] } },
    { id: 'search', url: `${origin}/?s=x`, kind: 'semantic-negative', predicate: { all: [{ status: { equals: 200 } }, { text: { not_contains: 'nothing matched' } }] } },
  ],
});

test('labels come from the predicate on the final response: a redirect is followed on the origin', async () => {
  const { labels, mismatches } = await labelManifest(manifest());
  assert.deepEqual(mismatches, []);
  assert.deepEqual(labels.map((l) => [l.case_id, l.status, l.truth]), [['nav', 200, 'success'], ['gone', 404, 'failure'], ['search', 200, 'failure']]);
  assert.deepEqual(labels[0]!.redirects, [{ url: `${origin}/moved`, status: 301 }]);
  assert.equal(labels[0]!.final_url, `${origin}/post/`);
  assert.equal(labels[2]!.clauses.find((c) => c.clause.includes('nothing matched'))!.holds, false);
});

test('a redirect off the origin is refused before it is sent', async () => {
  await assert.rejects(fetchDirect(`${origin}/away`, origin), (e: unknown) => e instanceof RefusedRequest && e.reason === 'host');
  assert.deepEqual(otherHits, [], 'nothing reached the other host');
  const before = siteHits.length;
  await assert.rejects(fetchDirect(`${otherOrigin}/direct`, origin), RefusedRequest);
  assert.deepEqual(otherHits, []);
  assert.equal(siteHits.length, before);
});

test('every request the labeler sends is a GET', async () => {
  await labelManifest(manifest());
  assert.ok(siteHits.length > 0);
  assert.ok(siteHits.every((h) => h.startsWith('GET ')), siteHits.join(', '));
});

test('a site that does not match the design is reported, case by case', async () => {
  const m = manifest();
  m.cases[1]!.url = `${origin}/post/`; // "http-404" now answers 200
  m.cases[1]!.predicate = { status: { equals: 200 } };
  const { mismatches } = await labelManifest(m);
  assert.equal(mismatches.length, 1);
  assert.match(mismatches[0]!, /^gone \(http-404, .*\): expected status 404 and failure, got 200 success/);
  assert.equal(kindMismatch('semantic-negative', 200, 'success'), 'expected a 2xx failure, got 200 success');
  assert.equal(kindMismatch('navigation', 200, 'success'), null);
});
