// shares the machine: pure functions on rows read from a sample file.
// The contracts arm's verdict check (analysis/verdict-registry.ts, recordVerdict): a recorded
// verdict is recomputed by replaying the row's evidence record through the verifier's own state
// machine, so a record that skips a stage, runs its clock back or lands elsewhere than it says is
// a problem, never a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../../core/paths.ts';
import { recordVerdict, registry } from '../../analysis/verdict-registry.ts';
import type { EvidenceRow } from '../../analysis/rows.ts';

const rows = fs.readFileSync(path.join(paths.queries(), 'evidence_arm_b_contracts.sample.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EvidenceRow).filter((r) => r.arm === 'arm-b-contracts');

test('the registry recomputes verifier-contract from the record, and every sample row gives its recorded verdict', () => {
  assert.equal(registry.get('arm-b-contracts', 'verifier-contract'), recordVerdict);
  assert.equal(registry.get('arm-b', 'verifier-contract'), undefined, 'only the contracts arm has it');
  assert.ok(rows.length >= 5);
  for (const r of rows) assert.deepEqual(recordVerdict(r.events, r), r.verdicts['verifier-contract'], r.condition_id);
  assert.ok(rows.some((r) => recordVerdict(r.events, r).accept) && rows.some((r) => !recordVerdict(r.events, r).accept));
});

test('a record that is not a run of the machine is refused, naming what is wrong', () => {
  const closed = rows.find((r) => r.evidence_record?.state === 'closed')!;
  const edit = (f: (t: NonNullable<EvidenceRow['evidence_record']>['transitions']) => void, state?: string) => {
    const r = structuredClone(closed);
    f(r.evidence_record!.transitions);
    if (state) r.evidence_record!.state = state as 'closed';
    return r;
  };
  assert.throws(() => recordVerdict([], edit((t) => t.splice(4, 1))), /starts from semantic-checked, but the replay is at transport-resolved/, 'a skipped stage');
  assert.throws(() => recordVerdict([], edit((t) => { t[3]!.t_ms = -1; })), /earlier than the previous/, 'a clock that runs back');
  assert.throws(() => recordVerdict([], edit((t) => { t[6]!.to = 'failed'; })), /lands on closed, not the recorded failed/);
  assert.throws(() => recordVerdict([], edit(() => {}, 'failed')), /the moves end at closed, the record says failed/);
  const noMoves = structuredClone(closed);
  noMoves.evidence_record = { ...noMoves.evidence_record!, state: 'failed', transitions: [] };
  assert.throws(() => recordVerdict([], noMoves), /must be a failed trial with its error/);
  noMoves.error = 'trial: the browser closed';
  assert.deepEqual(recordVerdict([], noMoves), { accept: false, latency_ms: null });
  assert.throws(() => recordVerdict([], { ...closed, evidence_record: undefined }), /no evidence_record/);
});
