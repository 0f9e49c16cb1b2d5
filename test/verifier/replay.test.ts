// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The verifier's contract checked against hand-made timelines: it closes only on the whole chain of
// evidence, and fails closed on an unrelated request, a missing read-back, ambiguity and timeouts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replay } from '../../verifier/src/replay.ts';
import type { ContractTerms } from '../../verifier/src/contract.ts';
import { policies } from '../../verifier/src/policies.ts';
import { app, dispatch, dom, failed, finished, horizon, redirect, request, response, target, targetRequest } from './timelines.ts';

const contract: ContractTerms = {
  id: 'save',
  request: { method: 'POST', path: '/api/save' },
  semantic: { kind: 'event', success: { source: 'app', type: 'commit' }, negative: [{ source: 'app', type: 'reject' }] },
  timeoutMs: 1000,
};
const states = (r: ReturnType<typeof replay>) => r.transitions.map((t) => t.to);
const allStages = ['dispatched', 'ui-observed', 'correlated', 'transport-resolved', 'semantic-checked', 're-read', 'closed'];

test('a success passes every stage in order and closes at its last evidence', () => {
  const r = replay(contract, [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('commit', 90), dom('confirmed', 91), horizon()]);
  assert.equal(r.state, 'closed');
  assert.deepEqual(states(r), allStages);
  assert.deepEqual(r.transitions.map((t) => t.t_ms), [0, 0, 2, 60, 90, 90, 90]);
  assert.equal(r.reason, null);
});

test('an optimistic rendering and an HTTP 200 do not close a semantic rejection', () => {
  const r = replay(contract, [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('reject', 85), horizon()]);
  assert.equal(r.state, 'failed');
  assert.match(r.reason!, /negative state: app reject/);
  assert.deepEqual(states(r), ['dispatched', 'ui-observed', 'correlated', 'transport-resolved', 'failed']);
});

test('a transport failure fails at transport, with the status', () => {
  const r = replay(contract, [dispatch(), ...targetRequest(503), horizon()]);
  assert.equal(r.state, 'failed');
  assert.match(r.reason!, /status 503/);
  const aborted = replay(contract, [dispatch(), request('t', 2, 'http://h/api/save'), response('t', 50), failed('t', 80), horizon()]);
  assert.equal(aborted.state, 'failed');
  assert.match(aborted.reason!, /failed before its body completed/);
});

test('an unrelated successful request never closes the action: it times out uncorrelated', () => {
  const events = [dispatch(), dom('optimistic', 1), request('b', 3, 'http://h/api/poll', 'GET'), response('b', 9), finished('b', 10), app('commit', 40), horizon()];
  const r = replay(contract, events);
  assert.equal(r.state, 'failed');
  assert.match(r.reason!, /^timeout: no request POST \/api\/save was sent \(1 unrelated\)/);
  assert.equal(policies['uncorrelated-control'](events).accept, true, 'the negative control accepts it');
});

test('two requests of the family are ambiguous (or failed, under the fail rule), never success', () => {
  const events = [dispatch(), ...targetRequest(200, 'a'), ...targetRequest(200, 'b'), app('commit', 90), horizon()];
  const r = replay(contract, events);
  assert.equal(r.state, 'ambiguous');
  assert.deepEqual(r.transitions.at(-1)!.detail.request_ids, ['a', 'b']);
  assert.equal(replay({ ...contract, ambiguity: 'fail' }, events).state, 'failed');
});

test('a status the contract calls neither success nor failure is ambiguous', () => {
  const r = replay({ ...contract, transport: { success: [200], failure: [[500, 599]] } }, [dispatch(), ...targetRequest(204), app('commit', 90), horizon()]);
  assert.equal(r.state, 'ambiguous');
  assert.match(r.reason!, /204, neither success nor failure/);
});

test('a request that never completes, or a commit that never comes, fails at the timeout', () => {
  const hanging = replay(contract, [dispatch(), request('t', 2, 'http://h/api/save'), response('t', 50), horizon()]);
  assert.equal(hanging.state, 'failed');
  assert.match(hanging.reason!, /^timeout: the request t reached no terminal event within 1000 ms/);
  assert.equal(hanging.transitions.at(-1)!.t_ms, 1000);
  const noCommit = replay(contract, [dispatch(), ...targetRequest(200), horizon()]);
  assert.equal(noCommit.state, 'failed');
  assert.match(noCommit.reason!, /^timeout: the semantic predicate/);
  // evidence after the contract's timeout does not count, even inside the trace's horizon
  const late = replay({ ...contract, timeoutMs: 80 }, [dispatch(), ...targetRequest(200), app('commit', 90), horizon()]);
  assert.equal(late.state, 'failed');
});

test('a declared re-read a recording cannot hold fails closed; so does a live-only predicate', () => {
  const events = [dispatch(), ...targetRequest(200), app('commit', 90), horizon()];
  const r = replay({ ...contract, reread: { read: async () => null, holds: () => true } }, events);
  assert.equal(r.state, 'failed');
  assert.match(r.reason!, /missing read-back/);
  assert.equal(replay({ ...contract, semantic: { kind: 'dom', success: '#ok' } }, events).state, 'failed');
});

test('a redirect chain to the target is the target; "no request expected" needs none', () => {
  const events = [dispatch(), request('r', 2, 'http://h/api/legacy/save'), redirect('r', 10, 'http://h/api/save'), response('r', 40), finished('r', 50), app('commit', 70), horizon()];
  assert.equal(replay(contract, events).state, 'closed');
  const local = replay({ ...contract, request: 'none' }, [dispatch(), app('commit', 5), horizon()]);
  assert.equal(local.state, 'closed');
  assert.deepEqual(states(local), allStages);
});

test('the fixture contract gives the committed-state policy\'s verdict on these timelines', () => {
  const rows = [
    [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('commit', 90), horizon()],
    [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('reject', 85), horizon()],
    [dispatch(), ...targetRequest(503), app('reject', 65), horizon()],
    [dispatch(), ...targetRequest(200, 'a'), ...targetRequest(200, 'b'), app('commit', 90), horizon()],
  ];
  for (const events of rows) assert.equal(replay(contract, events).state === 'closed', policies['transport-committed'](events, target).accept);
});
