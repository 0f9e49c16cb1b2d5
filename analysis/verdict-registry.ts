// The evidence policies whose recorded verdicts `make reanalyze` recomputes from the events.
// They are the very functions the runs used (the verifier's five, verifier/src/policies.ts, and
// Arm B's, core/evidence/production.ts; pure functions of the timeline): the check is that the
// recorded verdicts are what those functions give on the recorded events.
// A recorded policy without a function here makes the reanalysis fail, naming the policy. The
// contracts arm's verifier-contract is its record's end, replayed through the verifier's machine.
import { verdictRegistry, type VerdictRegistry } from './verdicts.ts';
import { productionPolicies } from '../core/evidence/production.ts';
import { controlledPolicies } from '../verifier/src/policies.ts';
import { declared, lastTime, step, type EvidenceInput, type EvidenceRecord } from '../verifier/src/machine.ts';
import type { EvidenceRow, Verdict } from './rows.ts';

/**
 * The contracts arm's verdict is the end of the verifier's evidence record, not a function of the
 * timeline: it is recomputed by replaying the recorded moves through the verifier's own state
 * machine from `declared` (each move legal, in order, on a clock that never goes back, landing where
 * the row says), and is accept exactly when the replay closes. A trial the browser failed before the
 * dispatch has no moves: its row names the error, and its verdict is a reject with no latency.
 */
export function recordVerdict(_events: unknown, row?: EvidenceRow): Verdict {
  const recorded = row?.evidence_record;
  if (!recorded) throw new Error('the row has no evidence_record');
  if (recorded.transitions.length === 0) {
    if (recorded.state !== 'failed' || !row!.error) throw new Error(`a record with no moves must be a failed trial with its error, not ${recorded.state}`);
    return { accept: false, latency_ms: null };
  }
  let replayed: EvidenceRecord = declared(recorded.action_id);
  recorded.transitions.forEach((t, i) => {
    if (t.from !== replayed.state) throw new Error(`move ${i} starts from ${t.from}, but the replay is at ${replayed.state}`);
    replayed = step(replayed, t.input as EvidenceInput, t.t_ms, t.detail);
    if (replayed.state !== t.to) throw new Error(`move ${i} (${t.input}) lands on ${replayed.state}, not the recorded ${t.to}`);
  });
  if (replayed.state !== recorded.state) throw new Error(`the moves end at ${replayed.state}, the record says ${recorded.state}`);
  return { accept: replayed.state === 'closed', latency_ms: lastTime(replayed) };
}

export const registry: VerdictRegistry = verdictRegistry({
  controlled: controlledPolicies, 'arm-a': controlledPolicies, 'arm-b': productionPolicies,
  'arm-b-contracts': { 'verifier-contract': recordVerdict },
});
