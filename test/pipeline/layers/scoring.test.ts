// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The layers scoring rule on hand-built timelines: no browser, every time chosen by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryOf, judge, type Observed } from '../../../pipeline/layers/scoring.ts';

const main = { kind: 'after-policy', boundaryMs: 100 } as const;
const base: Observed = { scoring: main, t0: 0, tEnd: 50, saves: [], firstTargetSaveAt: null, targetCommits: [], successShownAt: null, revealedAt: null, firstLookDone: null };
const scored = (o: Partial<Observed>) => {
  const observed = { ...base, ...o };
  const boundary = boundaryOf(observed);
  return { boundary, ...judge(observed, boundary) };
};

test('main arm: the boundary is 100 ms after the last save the server received', () => {
  const r = scored({ saves: [10, 30], tEnd: 60, firstTargetSaveAt: 10, targetCommits: [30], successShownAt: 40 });
  assert.equal(r.boundary.at, 130);
  assert.equal(r.boundary.setBy, 'save');
  assert.equal(r.apparentSuccess, true);
  assert.equal(r.marginMs, 100);
  assert.equal(r.timingSensitive, false);
});

test('main arm: a policy that returns later than that is scored at its return', () => {
  const r = scored({ saves: [10], tEnd: 500, targetCommits: [] });
  assert.deepEqual([r.boundary.at, r.boundary.setBy], [500, 'return']);
  assert.equal(r.marginMs, null);
  const none = scored({ saves: [], tEnd: 40 });
  assert.deepEqual([none.boundary.at, none.boundary.setBy], [40, 'return'], 'no save at all: the return sets it');
});

test('horizon arm: h ms after the first target save, or after the return when there was none', () => {
  const r = scored({ scoring: { kind: 'after-action', horizonMs: 350 }, saves: [12], firstTargetSaveAt: 12, tEnd: 20 });
  assert.deepEqual([r.boundary.at, r.boundary.setBy], [362, 'action']);
  const never = scored({ scoring: { kind: 'after-action', horizonMs: 50 }, tEnd: 20 });
  assert.equal(never.boundary.at, 70);
});

test('AS counts a success indication shown at or before the boundary, not after', () => {
  assert.equal(scored({ saves: [0], successShownAt: 100 }).apparentSuccess, true);
  assert.equal(scored({ saves: [0], successShownAt: 100.5 }).apparentSuccess, false);
});

test('State severity 1 scored at the save: the commit 20 ms past the boundary is not timing-sensitive', () => {
  // save received at 10, commit at 130, boundary at 110: margin -20, but the boundary is anchored at the save
  const r = scored({ saves: [10], firstTargetSaveAt: 10, targetCommits: [130], tEnd: 30, successShownAt: 20 });
  assert.equal(r.marginMs, -20);
  assert.equal(r.timingSensitive, false);
});

test('a success indication within 25 ms of the boundary is timing-sensitive', () => {
  assert.equal(scored({ saves: [0], successShownAt: 80 }).timingSensitive, true);
  assert.equal(scored({ saves: [0], successShownAt: 70 }).timingSensitive, false);
});

test('scored at the return: a target commit within 25 ms of it is timing-sensitive', () => {
  const r = scored({ saves: [], tEnd: 400, targetCommits: [390] });
  assert.equal(r.timingSensitive, true);
});

test('amendment 5: a commit that landed between the save-anchored boundary and a late return is flagged', () => {
  // semantic recovery returning late on State severity 2: save at 0, commit at 320, return at 450
  const late = scored({ saves: [0], firstTargetSaveAt: 0, targetCommits: [320], tEnd: 450, successShownAt: 10 });
  assert.equal(late.boundary.setBy, 'return');
  assert.equal(late.timingSensitive, true);
  // the same commit, but the policy returned before it: scored at the return, VTS false, not this rule
  const early = scored({ saves: [0], firstTargetSaveAt: 0, targetCommits: [320], tEnd: 200, successShownAt: 10 });
  assert.equal(early.timingSensitive, false);
  // as registered, the rule also flags a policy that waited on purpose until it saw the commit
  // (verification-aware, one save, State): the over-flagging the speed issue makes exact
  const waited = scored({ saves: [0], firstTargetSaveAt: 0, targetCommits: [120], tEnd: 900, successShownAt: 10 });
  assert.equal(waited.timingSensitive, true);
});

test('a look-once policy whose first look came back at or after the late surface is timing-sensitive', () => {
  assert.equal(scored({ revealedAt: 70, firstLookDone: 60 }).timingSensitive, true, 'within 25 ms before the reveal');
  assert.equal(scored({ revealedAt: 70, firstLookDone: 40 }).timingSensitive, false, 'well before: it saw nothing, as the fault intends');
  assert.equal(scored({ revealedAt: -5, firstLookDone: 300 }).timingSensitive, false, 'a surface there before the agent began is not late');
});
