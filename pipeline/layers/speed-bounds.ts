// Amendment 7's speed rule on rows that do not keep their moments (every row before it): what the
// row's own fields decide, and what they leave open. A pure function of one row and its condition.
//
// A row with `moments` is decided exactly (scoring.ts: speedSensitivity). A row without them keeps
// only its outcome, elapsed time (return − begin), timing margin (boundary − nearest target
// commit), actions and retries; the rule's answer then follows from the policy's causal structure
// where it can, and otherwise is bounded over every moment consistent with the row:
//   verification-aware with VTS: it returned after reading the commit back and after seeing its
//     success: no speed changes either (not flagged)
//   no pending commit (a commit at its save's receipt, or none) and a success the policy waited to
//     see: VTS and AS are fixed (not flagged)
//   State, one save, return at e ms after the save (no timer of its own after it): VTS at factor s
//     is d ≤ max(100, s·e). Scored at its return, e = margin + d exactly; scored at the save, e is
//     only known to be at most min(100, elapsed): flagged if ×4 of that bound could reach d
//   a success indication the policy did not wait to see (selector-only), a look-once on a late
//     surface, the horizon's success against h: their moments are not in the row (undecided,
//     unless the elapsed time bounds them out)
import type { LayersTask } from '../../core/layers.ts';
import { SPEED_RANGE, speedSensitivity, timelineOfRow, type RowMoments, type SpeedRange } from './scoring.ts';

export interface RowFields {
  arm: string; policy: string; horizon_ms: number; apparent_success: boolean; vts: boolean; elapsed_ms: number;
  timing_margin_ms?: number | null; actions?: number | null; retries?: number | null; error?: string | null; moments?: RowMoments;
}

export type SpeedVerdict = { status: 'flagged' | 'not' | 'undecided'; why: string };

export function speedVerdictOfRow(row: RowFields, task: LayersTask, range: SpeedRange = SPEED_RANGE): SpeedVerdict {
  if (row.moments) {
    const j = speedSensitivity(timelineOfRow({ arm: row.arm, horizon_ms: row.horizon_ms, moments: row.moments }), range);
    return j.timingSensitive ? { status: 'flagged', why: `×${j.witness} (${j.reason})` } : { status: 'not', why: 'moments' };
  }
  const f = task.faults;
  const d = f.commit_delay_ms;
  const E = row.elapsed_ms;
  if (row.error) return { status: 'undecided', why: `error: ${row.error}` };
  if (row.arm === 'horizon') {
    // the commit against h is fixed; AS: the success σ after the save against h, σ ≤ elapsed (it waited to see it)
    if (!row.apparent_success) return { status: 'undecided', why: 'horizon AS false: lacks the success moment' };
    return range.max * E <= row.horizon_ms ? { status: 'not', why: '×max of the whole trace is within h' } : { status: 'undecided', why: 'horizon AS: lacks the success moment after the save' };
  }
  const waitsToSee = row.policy === 'semantic-recovery' || row.policy === 'verification-aware';
  if (row.policy === 'verification-aware' && row.vts && row.apparent_success) return { status: 'not', why: 'read back and seen' };
  const oneSave = (row.retries ?? 0) === 0;
  // VTS
  let vts: SpeedVerdict = { status: 'not', why: 'no pending commit' };
  if (task.layer === 'state' && d > 0) {
    if (!oneSave) vts = { status: 'undecided', why: 'State with repeated saves' };
    else if (row.timing_margin_ms === null || row.timing_margin_ms === undefined) vts = { status: 'undecided', why: 'no margin' };
    else {
      const byReturn = Math.abs(row.timing_margin_ms - (100 - d)) > 0.11;
      const decide = (e: number) => { const k = d / e; return k > range.min && k <= range.max; };
      if (byReturn) vts = decide(row.timing_margin_ms + d) ? { status: 'flagged', why: `return ${(row.timing_margin_ms + d).toFixed(1)} ms after the save` } : { status: 'not', why: 'return far from the commit' };
      else vts = range.max * Math.min(100, E) >= d ? { status: 'undecided', why: 'scored at the save: lacks the return after it' } : { status: 'not', why: '×max of the whole trace stays before the commit' };
    }
  }
  // AS
  let as: SpeedVerdict = { status: 'not', why: 'seen' };
  if (!row.apparent_success) as = (row.actions ?? 0) === 0 || task.layer === 'action' ? { status: 'not', why: 'nothing shown' } : { status: 'undecided', why: 'AS false: lacks the success moment' };
  else if (!waitsToSee) as = range.max * E <= 100 ? { status: 'not', why: '×max of the whole trace within 100 ms' } : { status: 'undecided', why: 'AS not waited for: lacks the success moment after the save' };
  // the look-once decision on a late surface
  let look: SpeedVerdict = { status: 'not', why: 'no late surface' };
  if (row.policy === 'selector-only' && f.reveal_after_ms > 0) {
    const saw = (row.actions ?? 0) > 0;
    look = !saw && range.max * E < f.reveal_after_ms ? { status: 'not', why: '×max of the whole trace looks before the surface' } : { status: 'undecided', why: 'look-once on a late surface: lacks the look and reveal moments' };
  }
  const all = [vts, as, look];
  return all.find((v) => v.status === 'flagged') ?? all.find((v) => v.status === 'undecided') ?? { status: 'not', why: all.map((v) => v.why).join('; ') };
}
