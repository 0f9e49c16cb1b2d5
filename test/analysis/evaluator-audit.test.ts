// shares the machine: no browser; pure functions, and nothing it asserts depends on how fast it runs.
// The evaluator audit (analysis/evaluator-audit.ts): each evaluator's verdicts beside the store's,
// counted by hand from a handful of re-scored traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachVerdicts, auditEvaluators, auditRows, auditTraceRows, type RecordedVerdict } from '../../analysis/evaluator-audit.ts';
import { columnsOf, tableDef } from '../../analysis/tables.ts';
import type { EvaluatorVerdict } from '../../core/contracts.ts';
import type { Rescored } from '../../analysis/rescore.ts';

const trace = (r: Partial<Rescored>): Rescored => ({
  file: 'f', line: 1, browser: 'chromium', arm: 'real-apps', arm_version: 2, condition_id: 'c', policy: 'p', app: 'wordpress', layer: 'verification', transport: null,
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

const verdict = (v: Partial<EvaluatorVerdict>): RecordedVerdict => ({
  file: 'data/raw/evaluators/webarena-verified/run.jsonl', line: 1,
  verdict: {
    schema: 'evaluator-verdict/1', evaluator: 'webarena-verified', evaluator_version: '1.2.3', evaluator_checksum: 'e', data_checksum: 'd',
    run_file: 'f', run_sha256: 'a'.repeat(64), line: 1, condition_id: 'c', policy: 'p', task_id: 1, score: 1, status: 'success', accept: true,
    parts: [], error_msg: null, ledger_head: 'h', commit: 'c0', scored_at: '2026-12-06T00:00:00Z', load: [0, 0, 0], ...v,
  },
});

test('a registered WebArena-Verified verdict is set on the trace it names, by run file, sha256 and line; anything else is a problem', () => {
  const rows = [trace({}), trace({ line: 2, policy: 'verification-aware', vts: true, false_completion: false, claim_false_completion: false })];
  const result = { rows, runSha256: new Map([['f', 'a'.repeat(64)]]) };
  const problems = attachVerdicts(result, [
    verdict({}),
    verdict({ line: 2, policy: 'verification-aware', accept: false, score: 0 }),
    verdict({ line: 2, policy: 'verification-aware' }), // a second verdict on line 2
    verdict({ line: 3 }), // no such trace
    verdict({ line: 1, policy: 'selector-only' }), // line 1 is another policy's
    verdict({ run_file: 'g' }), // not a re-scored run
  ]);
  assert.deepEqual([rows[0]!.webarena_verified_accept, rows[1]!.webarena_verified_accept], [true, false]);
  assert.equal(problems.length, 4);
  assert.match(problems[0]!, /a second webarena-verified verdict on f line 2/);
  assert.match(problems[1]!, /names line 3 of f/);
  assert.match(problems[2]!, /names line 1 of f as c selector-only/);
  assert.match(problems[3]!, /names g, which is not a re-scored run file/);
  // its row in the audit: it credits the unstored trace and rejects the stored one
  const cell = auditRows(rows).find((r) => r.fault === 'verification' && r.evaluator === 'webarena-verified')!;
  assert.deepEqual([cell.n, cell.false_accept_n, cell.false_reject_n], [2, 1, 1]);
  assert.equal(auditRows([trace({})]).find((r) => r.evaluator === 'webarena-verified'), undefined, 'no verdict: no row');
});

test('a run file changed since it was scored: its verdicts are not used', () => {
  const rows = [trace({})];
  const problems = attachVerdicts({ rows, runSha256: new Map([['f', 'b'.repeat(64)]]) }, [verdict({})]);
  assert.equal(rows[0]!.webarena_verified_accept, null);
  assert.deepEqual(problems, ['data/raw/evaluators/webarena-verified/run.jsonl:1: f has changed since webarena-verified scored it (its sha256 differs)']);
});

test('the rows the audit counts, one a trace: its group, the store and every evaluator under its name; the table follows from them', () => {
  const rescored = [
    trace({ file: 'g', line: 2, layer: 'state', claim_done: false, claim_false_completion: false, fixed_wait_accept: true, network_accept: null }),
    trace({ file: 'g', line: 1, policy: 'verification-aware', vts: true, false_completion: false, claim_false_completion: false, fixed_wait_accept: true, webarena_verified_accept: false }),
    trace({}),
    trace({ file: 'h', arm: 'transport', arm_version: 1, layer: 'state', transport: 'write-error', claim_done: null }),
  ];
  const rows = auditTraceRows(rescored);
  // in run file and line order; the late State write's trace has no network verdict (no HAR)
  assert.deepEqual(rows.map((r) => [r.file, r.line]), [['f', 1], ['g', 1], ['g', 2], ['h', 1]]);
  assert.deepEqual(rows[2], {
    file: 'g', line: 2, browser: 'chromium', arm: 'real-apps', arm_version: 2, app: 'wordpress', fault: 'state', condition_id: 'c', policy: 'p', stored: false,
    store: false, page: true, claim: false, 'fixed-wait': true, network: null, 'webarena-verified': null,
  });
  assert.equal(rows[3]!.fault, 'state+write-error');
  assert.deepEqual([rows[1]!.stored, rows[1]!.store, rows[1]!['webarena-verified']], [true, true, false]);
  // the table keeps every column of a row: each evaluator has its own
  const columns = columnsOf(tableDef('evaluator_audit_traces'));
  for (const r of rows) for (const c of Object.keys(r)) assert.ok(columns.includes(c), `evaluator_audit_traces lacks the column ${c}`);
  for (const e of auditEvaluators) assert.ok(columns.includes(e), e);
  // and evaluator_audit is their count, cell by cell (a fault's row and the 'all' row of its group)
  for (const row of auditRows(rescored)) {
    const mine = rows.filter((r) => ['browser', 'arm', 'arm_version', 'app'].every((k) => r[k] === row[k]) && (row.fault === 'all' || r.fault === row.fault) && r[row.evaluator as string] !== null);
    const stored = mine.filter((r) => r.stored);
    const notStored = mine.filter((r) => !r.stored);
    const e = row.evaluator as string;
    assert.deepEqual([mine.length, stored.length, notStored.length, notStored.filter((r) => r[e] === true).length, stored.filter((r) => r[e] === false).length],
      [row.n, row.stored_n, row.not_stored_n, row.false_accept_n, row.false_reject_n], `${row.arm} ${row.fault} ${e}`);
  }
});
