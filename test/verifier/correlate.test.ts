// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { correlate, chainsOf } from '../../verifier/src/correlate.ts';
import { dispatch, horizon, request, redirect, response, finished, failed, received, target, targetRequest } from './timelines.ts';

test('the one target request is correlated, with its terminal completion', () => {
  const c = correlate([dispatch(), ...targetRequest(200), horizon()], target);
  assert.equal(c.kind, 'correlated');
  if (c.kind !== 'correlated') return;
  assert.equal(c.chain.request_id, 't1');
  assert.deepEqual(c.chain.terminal, { type: 'finished', t_ms: 60, status: 200, response_t_ms: 50 });
  assert.equal(c.server_seen, true);
});

test('a redirect chain is followed to the target: the chain starts elsewhere and reaches /api/save', () => {
  const timeline = [
    dispatch(),
    request('r', 1, 'http://h/api/legacy-save'),
    redirect('r', 5, 'http://h/api/v1/save'),
    redirect('r', 9, 'http://h/api/save'),
    response('r', 70, 200),
    finished('r', 72),
    horizon(),
  ];
  const c = correlate(timeline, target);
  assert.equal(c.kind, 'correlated');
  if (c.kind !== 'correlated') return;
  assert.deepEqual(c.chain.hops.map((h) => new URL(h.url).pathname), ['/api/legacy-save', '/api/v1/save', '/api/save']);
  assert.equal(c.chain.terminal?.status, 200);
  assert.equal(c.chain.terminal?.t_ms, 72);
});

test('the redirect status is not the terminal status', () => {
  const timeline = [dispatch(), request('r', 1, 'http://h/api/save'), redirect('r', 5, 'http://h/api/save/v2'), response('r', 70, 503), finished('r', 72)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated' && c.chain.terminal?.status === 503);
});

test('background requests to other paths or with another method are not correlated', () => {
  const timeline = [
    dispatch(),
    request('b1', 1, 'http://h/api/poll', 'GET'), response('b1', 5), finished('b1', 6),
    request('b2', 2, 'http://h/api/save', 'GET'), response('b2', 7), finished('b2', 8),
    ...targetRequest(200),
  ];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated' && c.chain.request_id === 't1');
});

test('a matching request sent before the dispatch cannot have been caused by the action', () => {
  const timeline = [request('early', -20, 'http://h/api/save'), response('early', -5), finished('early', -4), dispatch(), horizon()];
  assert.equal(correlate(timeline, target).kind, 'none');
});

test('two matching requests in the window are ambiguous: fail closed', () => {
  const timeline = [dispatch(), ...targetRequest(200, 'a'), ...targetRequest(200, 'b')];
  const c = correlate(timeline, target);
  assert.equal(c.kind, 'ambiguous');
  assert.ok(c.kind === 'ambiguous' && c.request_ids.length === 2);
});

test('a request started after the horizon is outside the window', () => {
  const timeline = [dispatch(), horizon(100), request('late', 150, 'http://h/api/save'), response('late', 160), finished('late', 170)];
  assert.equal(correlate(timeline, target).kind, 'none');
});

test('a terminal event after the horizon leaves the chain without a terminal', () => {
  const timeline = [dispatch(), request('t', 1, 'http://h/api/save'), response('t', 90), horizon(100), finished('t', 150)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated' && c.chain.terminal === null);
});

test('a failure after response headers keeps the started status but is a failed terminal', () => {
  const timeline = [dispatch(), request('t', 1, 'http://h/api/save'), response('t', 50, 200), failed('t', 80)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated');
  if (c.kind !== 'correlated') return;
  assert.deepEqual(c.chain.terminal, { type: 'failed', t_ms: 80, status: 200, response_t_ms: 50 });
});

test('server_seen is false when no server log entry matches (served from a cache)', () => {
  const timeline = [dispatch(), request('c', 1, 'http://h/api/save'), response('c', 2, 200, { from_cache: true }), finished('c', 3)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated' && c.server_seen === false && c.chain.from_cache === true);
});

test('chainsOf ignores events of requests it never saw announced', () => {
  assert.deepEqual(chainsOf([response('x', 5), finished('x', 6)]), []);
});

test('a finished stamped before its response (CDP stamps them in different layers) keeps the status; completion is the later time', () => {
  const timeline = [dispatch(), request('t', 1, 'http://h/api/save'), finished('t', 58.8), response('t', 65.5, 200)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated');
  if (c.kind !== 'correlated') return;
  assert.deepEqual(c.chain.terminal, { type: 'finished', t_ms: 65.5, status: 200, response_t_ms: 65.5 });
});

test('the window opens at minus the page-clock uncertainty: a request mapped 1 ms before the click still counts', () => {
  const sync = { t_ms: 0, source: 'runner' as const, type: 'clock-sync', detail: { page_uncertainty_ms: 2 } };
  const timeline = [dispatch(), sync, request('t', -1, 'http://h/api/save'), response('t', 50), finished('t', 51)];
  assert.equal(correlate(timeline, target).kind, 'correlated');
  assert.equal(correlate(timeline.filter((e) => e !== sync), target).kind, 'none');
});

test('server_seen matches method and path: a background GET to the target path is not the target', () => {
  const timeline = [dispatch(), request('c', 1, 'http://h/api/save'), received(2, '/api/save', 'GET'), response('c', 3, 200), finished('c', 4)];
  const c = correlate(timeline, target);
  assert.ok(c.kind === 'correlated' && c.server_seen === false);
});
