// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The replay table: the verifier's contract for the controlled app against the committed-state
// policy's recorded verdict. On hand-made rows it counts agreement and disagreement as they are;
// on the registered timelines (data/raw) it agrees on every row, in both browsers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifierReplay } from '../../analysis/verifier-replay.ts';
import { rawFiles, readRows, type EvidenceRow, type Located } from '../../analysis/rows.ts';
import { app, dispatch, dom, horizon, targetRequest } from '../verifier/timelines.ts';

const row = (i: number, events: EvidenceRow['events'], accept: boolean, latency: number | null, arm = 'controlled'): Located<EvidenceRow> => ({
  file: 'x.jsonl', line: i,
  row: {
    schema: 'trace/1', study: 'evidence', arm, run_id: 'r', condition_id: `c${i}`, policy: 'evidence-policies/1',
    browser: { name: 'chromium', version: '1' }, ledger_head: 'c'.repeat(64), started_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 1,
    scenario: 'success', delay_ms: 50, rep: 0, truth: 'success', events, verdicts: { 'transport-committed': { accept, latency_ms: latency } },
  } as EvidenceRow,
});

test('agreement and disagreement with the recorded committed-state verdict are counted as they are', () => {
  const success = [dispatch(), dom('optimistic', 1), ...targetRequest(200), app('commit', 90), horizon()];
  const rejected = [dispatch(), ...targetRequest(200), app('reject', 85), horizon()];
  const rows = [
    row(1, success, true, 90),
    row(2, rejected, false, 85),
    row(3, success, false, null), // a recorded verdict the verifier contradicts: a disagreement
    row(4, success, true, 91), // agrees, at another time
    row(5, success, true, 90, 'arm-b'), // another arm: not counted
  ];
  assert.deepEqual(verifierReplay(rows), [{
    arm: 'controlled', browser: 'chromium', rows: 4, policy_rows: 4, closed_n: 3, failed_n: 1, ambiguous_n: 0,
    policy_accept_n: 2, agree_n: 3, disagree_n: 1, closed_latency_equal_n: 1,
  }]);
});

test('on every registered timeline of the controlled arm and Arm A the verifier gives the committed-state verdict', () => {
  const rows = readRows<EvidenceRow>(rawFiles('evidence')).filter((r) => r.row.arm === 'controlled' || r.row.arm === 'arm-a');
  const table = verifierReplay(rows);
  assert.deepEqual(table.map((r) => [r.arm, r.browser, r.rows, r.agree_n, r.disagree_n]), [
    ['controlled', 'chromium', 320, 320, 0],
    ['arm-a', 'firefox', 320, 320, 0],
  ]);
});
