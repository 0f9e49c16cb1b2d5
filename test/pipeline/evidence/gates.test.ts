// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runGates, type GateInput } from '../../../pipeline/evidence/gates.ts';
import type { EvidenceEvent } from '../../../verifier/src/events.ts';
import { app, dispatch, dom, failed, finished, horizon, received, redirect, request, response } from '../../verifier/timelines.ts';

const sync = (u = 1): EvidenceEvent => ({ t_ms: 0, source: 'runner', type: 'clock-sync', detail: { page_uncertainty_ms: u } });
const row = (scenario: string, events: EvidenceEvent[], id = scenario): GateInput => ({ condition_id: id, scenario, events });
const failing = (rows: GateInput[]) => Object.fromEntries(runGates(rows).map((g) => [g.id, g.failed]));

const good = (extra: EvidenceEvent[] = []) => [
  dispatch(), sync(), dom('optimistic', 1), request('t', 2, 'http://h/api/save'), received(4, '/api/save'),
  response('t', 50, 200), finished('t', 52), app('commit', 85), horizon(), ...extra,
];

test('a well-instrumented success row passes every general gate', () => {
  const f = failing([row('success', good())]);
  for (const id of ['clock', 'target-correlated', 'optimistic-first', 'final-state-in-window', 'server-clock']) assert.deepEqual(f[id], [], id);
});

test('a loose page clock fails the clock gate', () => {
  assert.deepEqual(failing([row('success', good().map((e) => (e.type === 'clock-sync' ? sync(9) : e)))]).clock, ['success']);
});

test('a server receipt before the browser sent the request fails the server-clock gate', () => {
  const events = good().map((e) => (e.source === 'server' ? received(-10, '/api/save') : e));
  assert.deepEqual(failing([row('success', events)])['server-clock'], ['success']);
});

test('redirect rows must reach the target through two hops', () => {
  const followed = [dispatch(), sync(), dom('optimistic', 1), request('r', 2, 'http://h/api/legacy/save'), redirect('r', 4, 'http://h/api/v1/save'), redirect('r', 6, 'http://h/api/save'), response('r', 60), finished('r', 61), app('commit', 90), horizon()];
  const direct = good();
  assert.deepEqual(failing([row('redirect', followed, 'a'), row('redirect', direct, 'b')])['redirect-followed'], ['b']);
});

test('an abort must be a failure after a started response; a finished body does not pass', () => {
  const aborted = [dispatch(), sync(), dom('optimistic', 1), request('t', 2, 'http://h/api/save'), response('t', 50), failed('t', 70), app('reject', 72), horizon()];
  assert.deepEqual(failing([row('aborted', aborted, 'a'), row('aborted', good(), 'b')])['abort-is-failure'], ['b']);
});

test('cache: the browser\'s flag, or with no flag the server\'s silence; a server that saw it fails', () => {
  const flagged = [dispatch(), sync(), dom('optimistic', 1), request('c', 2, 'http://h/api/save'), response('c', 3, 200, { from_cache: true }), finished('c', 4), app('commit', 40), horizon()];
  const unknownButSilent = [dispatch(), sync(), dom('optimistic', 1), request('c', 2, 'http://h/api/save'), response('c', 3, 200, { from_cache: null }), finished('c', 4), app('commit', 40), horizon()];
  const unknownAndSeen = good().map((e) => (e.type === 'response' ? response('t', 50, 200, { from_cache: null }) : e));
  assert.deepEqual(failing([row('cached', flagged, 'a'), row('cached', unknownButSilent, 'b'), row('cached', unknownAndSeen, 'c')])['served-from-cache'], ['c']);
});

test('a gate with no applicable rows is reported as unexercised (checked 0)', () => {
  const g = runGates([row('success', good())]).find((x) => x.id === 'background-not-correlated')!;
  assert.equal(g.checked, 0);
});
