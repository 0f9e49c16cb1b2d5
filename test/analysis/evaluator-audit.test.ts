// shares the machine: no browser; pure functions, and nothing it asserts depends on how fast it runs.
// The evaluator audit (analysis/evaluator-audit.ts): each evaluator's verdicts beside the store's,
// counted by hand from a handful of re-scored traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditRows } from '../../analysis/evaluator-audit.ts';
import type { Rescored } from '../../analysis/rescore.ts';

const trace = (r: Partial<Rescored>): Rescored => ({
  file: 'f', browser: 'chromium', arm: 'real-apps', arm_version: 2, condition_id: 'c', policy: 'p', app: 'wordpress', layer: 'verification', transport: null,
  vts: false, apparent_success: true, false_completion: true, claim_false_completion: true, claim_done: true,
  fixed_wait_accept: false, network_accept: true, webarena_verified_accept: null, disagrees: [], ...r,
});

test('false accepts and false rejects per evaluator, over the traces the store denies and holds; an evaluator that cannot say is left out', () => {
  const rows = auditRows([
    // semantic recovery under Verification: the page said saved, the write never reached the app; the answer was 302
    trace({}),
    // verification-aware there: stored on its third save, and it said done
    trace({ policy: 'verification-aware', vts: true, false_completion: false, claim_false_completion: false, fixed_wait_accept: true }),
    // a State write landed after the boundary: the store lacks it at the boundary, the fixed wait sees it; no HAR
    trace({ layer: 'state', claim_done: false, claim_false_completion: false, fixed_wait_accept: true, network_accept: null }),
  ]);
  const cell = (fault: string, evaluator: string) => {
    const r = rows.find((x) => x.fault === fault && x.evaluator === evaluator);
    return r && [r.n, r.stored_n, r.not_stored_n, r.accept_n, r.false_accept_n, r.false_reject_n];
  };
  //                                               n  stored  not  accept  FA  FR
  assert.deepEqual(cell('verification', 'store'), [2, 1, 1, 1, 0, 0]);
  assert.deepEqual(cell('verification', 'page'), [2, 1, 1, 2, 1, 0]);
  assert.deepEqual(cell('verification', 'claim'), [2, 1, 1, 2, 1, 0]);
  assert.deepEqual(cell('verification', 'fixed-wait'), [2, 1, 1, 1, 0, 0]);
  assert.deepEqual(cell('verification', 'network'), [2, 1, 1, 2, 1, 0]);
  assert.deepEqual(cell('state', 'claim'), [1, 0, 1, 0, 0, 0]);
  assert.deepEqual(cell('state', 'fixed-wait'), [1, 0, 1, 1, 1, 0], 'the late write: the fixed wait credits what the boundary lacked');
  assert.equal(cell('state', 'network'), undefined, 'no HAR: the network rule has no row');
  assert.deepEqual(cell('all', 'network'), [2, 1, 1, 2, 1, 0]);
  assert.deepEqual(cell('all', 'page'), [3, 1, 2, 3, 2, 0]);
  // the papers' order: every fault together first, then the layers; the store first among evaluators
  assert.deepEqual(rows.slice(0, 2).map((r) => [r.fault, r.evaluator]), [['all', 'store'], ['all', 'page']]);
});

test('a transport fault is named with the layer beneath it; a version-1 row without a claim has no claim row', () => {
  const rows = auditRows([
    trace({ arm: 'transport', arm_version: 1, layer: 'baseline', transport: 'lost-response', claim_done: null, vts: true, false_completion: false }),
    trace({ arm: 'transport', arm_version: 1, layer: 'state', transport: 'write-error', claim_done: null }),
  ]);
  assert.deepEqual([...new Set(rows.map((r) => r.fault))], ['all', 'lost-response', 'state+write-error']);
  assert.ok(!rows.some((r) => r.evaluator === 'claim'));
  const lost = rows.find((r) => r.fault === 'lost-response' && r.evaluator === 'page')!;
  assert.deepEqual([lost.false_accept_n, lost.false_reject_n, lost.stored_n], [0, 0, 1]);
});
