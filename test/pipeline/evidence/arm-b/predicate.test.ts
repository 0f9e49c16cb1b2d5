// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, htmlText, htmlTitle, decodeEntities, type Predicate } from '../../../../pipeline/evidence/arm-b/predicate.ts';

const page = `<!doctype html><html><head><title>Search Results for &#8220;quokka&#8221; &#8211; Site</title>
<style>.x{content:"nothing matched"}</style><script>var s = "Welcome";</script></head>
<body><!-- nothing matched --><h1>Search results for: &ldquo;quokka&rdquo;</h1>
<p>Sorry, but   nothing&nbsp;matched your search terms.</p><noscript>enable JS</noscript></body></html>`;

test('title and visible text: entities decoded, scripts, styles, comments and tags gone, whitespace collapsed', () => {
  assert.equal(htmlTitle(page), 'Search Results for “quokka” – Site');
  assert.equal(htmlText(page), 'Search results for: “quokka” Sorry, but nothing matched your search terms.');
  assert.equal(decodeEntities('&amp;lt; &#x41; &bogus;'), '&lt; A &bogus;');
});

test('a search contract fails on an HTTP 200 page that says nothing matched, and holds on one with results', () => {
  const contract: Predicate = { all: [{ status: { equals: 200 } }, { text: { contains: 'Search results for' } }, { text: { not_contains: 'nothing matched' } }] };
  const negative = evaluate(contract, { status: 200, body: page });
  assert.equal(negative.holds, false);
  assert.deepEqual(negative.clauses.map((c) => c.holds), [true, true, false]);
  const withResults = page.replace('Sorry, but   nothing&nbsp;matched your search terms.', 'A post about quokkas');
  assert.equal(evaluate(contract, { status: 200, body: withResults }).holds, true);
  // the same page with a 404 fails on status, and every leaf is still reported
  const r = evaluate(contract, { status: 404, body: withResults });
  assert.equal(r.holds, false);
  assert.equal(r.clauses.length, 3);
});

test('any, not, status in, title equals, raw body and ignore_case', () => {
  const body = '<title>Hello</title><p>World</p>';
  assert.equal(evaluate({ any: [{ status: { equals: 500 } }, { status: { in: [200, 204] } }] }, { status: 204, body }).holds, true);
  assert.equal(evaluate({ not: { title: { equals: 'Hello' } } }, { status: 200, body }).holds, false);
  assert.equal(evaluate({ body: { contains: '<p>World' } }, { status: 200, body }).holds, true);
  assert.equal(evaluate({ text: { contains: 'world' } }, { status: 200, body }).holds, false);
  assert.equal(evaluate({ text: { contains: 'world', ignore_case: true } }, { status: 200, body }).holds, true);
  assert.deepEqual(evaluate({ title: { equals: 'Hello', not_contains: 'x' } }, { status: 200, body }).clauses, [{ clause: 'title equals "Hello" and does not contain "x"', holds: true }]);
});
