// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policies, verdictsOf, policyIds, controlledPolicies } from '../../verifier/src/policies.ts';
import { app, dispatch, dom, failed, finished, horizon, request, response, target, targetRequest } from './timelines.ts';

const successRow = [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('commit', 90), dom('confirmed', 91), horizon()];
const semanticFailureRow = [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('reject', 85), dom('rolled-back', 86), horizon()];
const httpFailureRow = [dispatch(), dom('optimistic', 1), ...targetRequest(503), app('reject', 65), dom('rolled-back', 66), horizon()];
const abortedRow = [dispatch(), dom('optimistic', 1), request('t', 2, 'http://h/api/save'), response('t', 50), failed('t', 80), app('reject', 82), horizon()];

test('a success is accepted by every policy, each at the time its last required event arrived', () => {
  assert.deepEqual(verdictsOf(successRow, target), {
    'optimistic-dom': { accept: true, latency_ms: 1 },
    'network-terminal': { accept: true, latency_ms: 60 },
    'transport-optimistic': { accept: true, latency_ms: 60 },
    'transport-committed': { accept: true, latency_ms: 90 },
    'uncorrelated-control': { accept: true, latency_ms: 60 },
  });
});

test('a semantic HTTP-200 failure: DOM and transport accept, the committed state rejects at the app reject', () => {
  const v = verdictsOf(semanticFailureRow, target);
  assert.equal(v['optimistic-dom'].accept, true);
  assert.equal(v['network-terminal'].accept, true);
  assert.equal(v['transport-optimistic'].accept, true);
  assert.deepEqual(v['transport-committed'], { accept: false, latency_ms: 85 });
  assert.equal(v['uncorrelated-control'].accept, true);
});

test('an HTTP 5xx: transport rejects at its terminal event; optimistic DOM still accepts', () => {
  const v = verdictsOf(httpFailureRow, target);
  assert.equal(v['optimistic-dom'].accept, true);
  assert.deepEqual(v['network-terminal'], { accept: false, latency_ms: 60 });
  assert.deepEqual(v['transport-optimistic'], { accept: false, latency_ms: 60 });
  assert.deepEqual(v['transport-committed'], { accept: false, latency_ms: 60 });
  assert.equal(v['uncorrelated-control'].accept, false);
});

test('an aborted body: headers alone (response started) are not completion', () => {
  const v = verdictsOf(abortedRow, target);
  assert.deepEqual(v['network-terminal'], { accept: false, latency_ms: 80 });
  assert.equal(v['uncorrelated-control'].accept, false);
});

test('a background success in the window fools only the uncorrelated control', () => {
  const timeline = [
    dispatch(), dom('optimistic', 1),
    request('bg', 3, 'http://h/api/poll', 'GET'), response('bg', 8), finished('bg', 9),
    request('t', 2, 'http://h/api/save'), response('t', 50, 500), finished('t', 51), app('reject', 52),
    horizon(),
  ];
  assert.deepEqual(policies['uncorrelated-control'](timeline, target), { accept: true, latency_ms: 9 });
  assert.equal(policies['network-terminal'](timeline, target).accept, false);
  assert.equal(policies['transport-committed'](timeline, target).accept, false);
});

test('ambiguity fails closed for every correlated policy, even when both requests succeeded', () => {
  const timeline = [dispatch(), dom('optimistic', 1), ...targetRequest(200, 'a'), ...targetRequest(200, 'b'), app('commit', 90), horizon()];
  const v = verdictsOf(timeline, target);
  assert.deepEqual(v['network-terminal'], { accept: false, latency_ms: null });
  assert.equal(v['transport-optimistic'].accept, false);
  assert.equal(v['transport-committed'].accept, false);
  assert.equal(v['optimistic-dom'].accept, true);
});

test('events after the horizon do not count', () => {
  const timeline = [dispatch(), request('t', 2, 'http://h/api/save'), response('t', 50), horizon(100), finished('t', 300), app('commit', 310), dom('confirmed', 311)];
  const v = verdictsOf(timeline, target);
  for (const id of policyIds) assert.equal(v[id].accept, false, id);
  assert.equal(v['network-terminal'].latency_ms, null);
});

test('a commit without transport evidence is not enough for transport-committed', () => {
  const timeline = [dispatch(), app('commit', 5), horizon()];
  assert.deepEqual(policies['transport-committed'](timeline, target), { accept: false, latency_ms: null });
});

test('the policies are pure: the same timeline gives the same verdicts and is not modified', () => {
  const copy = structuredClone(successRow);
  assert.deepEqual(verdictsOf(successRow, target), verdictsOf(copy, target));
  assert.deepEqual(successRow, copy);
});

test('the target contract declared on the dispatch event is what the policies use when none is passed', () => {
  const declared = successRow.map((e) => (e.type === 'dispatch' ? { ...e, detail: { target } } : e));
  assert.deepEqual(verdictsOf(declared), verdictsOf(successRow, target));
  // no contract declared and none passed: nothing can be correlated, so transport policies fail closed
  const bare = successRow.map((e) => (e.type === 'dispatch' ? { t_ms: e.t_ms, source: e.source, type: e.type } : e));
  const v = verdictsOf(bare);
  assert.equal(v['network-terminal'].accept, false);
  assert.equal(v['transport-committed'].accept, false);
  assert.equal(v['optimistic-dom'].accept, true);
});

test('controlledPolicies are functions of the events alone, as the reanalysis calls them', () => {
  const declared = semanticFailureRow.map((e) => (e.type === 'dispatch' ? { ...e, detail: { target } } : e));
  for (const id of policyIds) assert.deepEqual(controlledPolicies[id](declared), policies[id](semanticFailureRow, target), id);
});
