// The `layers` scoring rule as pure functions of what a trace recorded (every time on the
// harness's process clock, ms). The condition runner (condition.ts) records; this file decides.
//
//   boundaryOf(observed)        where the trace is scored (prereg/layers.md, amendments 1 and 2):
//     main:    B ms after the server received the policy's last save, or the policy's return,
//              whichever is later
//     horizon: h ms after the server received the one target save
//   judge(observed, boundary)   AS (a success indication shown by the boundary), the margin to the
//                               nearest target commit, and whether the outcome is timing-sensitive
//
// Timing-sensitive (amendments 1, 4 and 5): the success indication showed within 25 ms of the
// boundary; the boundary was set by the policy's return and the nearest target commit lies within
// 25 ms of it; a policy that looked once without waiting got its answer later than 25 ms before a
// late surface appeared; or the boundary was set by the policy's return and a target commit landed
// between the save-anchored boundary and that return.

export type Scoring = { kind: 'after-policy'; boundaryMs: number } | { kind: 'after-action'; horizonMs: number };

/** Within this many ms of the boundary an outcome is reported as timing-sensitive (prereg/layers-amendment-1.md). */
export const TIMING_SENSITIVE_MS = 25;

export interface Observed {
  scoring: Scoring;
  /** the agent began */
  t0: number;
  /** the policy returned */
  tEnd: number;
  /** when the server received each save request (any entity) */
  saves: readonly number[];
  /** when the server received the first save of the target (the horizon's anchor) */
  firstTargetSaveAt: number | null;
  /** when each of the target's commits takes effect */
  targetCommits: readonly number[];
  /** the first moment a success indication was visible, if ever */
  successShownAt: number | null;
  /** the moment a late surface appeared (the Access fault), if it did */
  revealedAt: number | null;
  /** when a look-once policy's first look returned, if it looked */
  firstLookDone: number | null;
}

export interface Boundary {
  /** the scoring boundary */
  at: number;
  horizonMs: number;
  /** what set it: the last save, the policy's return (a slow policy), or the one action (horizon) */
  setBy: 'save' | 'return' | 'action';
  lastSaveReceived: number | null;
}

export function boundaryOf(o: Pick<Observed, 'scoring' | 'tEnd' | 'saves' | 'firstTargetSaveAt'>): Boundary {
  if (o.scoring.kind === 'after-action') {
    const anchor = o.firstTargetSaveAt ?? o.tEnd;
    return { at: anchor + o.scoring.horizonMs, horizonMs: o.scoring.horizonMs, setBy: 'action', lastSaveReceived: null };
  }
  const horizonMs = o.scoring.boundaryMs;
  const lastSaveReceived = o.saves.length ? Math.max(...o.saves) : null;
  const byReturn = lastSaveReceived === null || o.tEnd > lastSaveReceived + horizonMs;
  return { at: byReturn ? o.tEnd : lastSaveReceived + horizonMs, horizonMs, setBy: byReturn ? 'return' : 'save', lastSaveReceived };
}

export interface Judged {
  apparentSuccess: boolean;
  /** boundary minus the nearest target commit (ms); null when the target never commits */
  marginMs: number | null;
  timingSensitive: boolean;
}

export function judge(o: Observed, b: Boundary): Judged {
  const near = TIMING_SENSITIVE_MS;
  const margin = o.targetCommits.length ? o.targetCommits.map((c) => b.at - c).reduce((a, x) => (Math.abs(x) < Math.abs(a) ? x : a)) : null;
  const shownMargin = o.successShownAt === null ? null : b.at - o.successShownAt;
  const byReturn = b.setBy === 'return';
  // a policy that looked once, without waiting, saw a surface that appeared after the agent
  // began only because its look came late: its outcome follows its own speed
  const lookedLate = o.revealedAt !== null && o.revealedAt > o.t0 && o.firstLookDone !== null && o.firstLookDone >= o.revealedAt - near;
  // scored at the policy's return: a target commit between the save-anchored boundary and that
  // return landed only because the policy was slow
  const landedWhileSlow =
    byReturn && b.lastSaveReceived !== null && o.targetCommits.some((c) => c >= b.lastSaveReceived! + b.horizonMs - near && c <= b.at + near);
  const commitNear = margin !== null && Math.abs(margin) < near && (byReturn || (b.setBy === 'action' && o.firstTargetSaveAt === null));
  return {
    apparentSuccess: o.successShownAt !== null && o.successShownAt <= b.at,
    marginMs: margin,
    timingSensitive: lookedLate || landedWhileSlow || (shownMargin !== null && Math.abs(shownMargin) < near) || commitNear,
  };
}
