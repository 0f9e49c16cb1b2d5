// The one scorer of the `layers` study, for every arm: pure functions of what a trace recorded
// (every time on the harness's process clock, ms). The condition runners record (condition.ts for
// the small apps, real-apps/condition.ts for the applications behind the fault proxy); this file
// decides. Each arm supplies only its app and its parameters:
//
//   small apps (main, horizon, verified, transport's small-app rows, agents, pilot)
//       boundaryOf / judge / speedSensitivity             below
//   applications behind the proxy (real-apps, transport)
//       realAppBoundaryOf / realAppTimingSensitive        "The applications behind the fault proxy"
//   every arm: the verdict from AS, VTS and the claim     core/verdict.ts (the recount reads it too)
//   a registered row scored again from what it keeps      rescoreRow (test/pipeline/layers/rescore-rows.test.ts)
//
//   boundaryOf(observed)        where the trace is scored (prereg/layers.md, amendments 1 and 2):
//     main:    B ms after the server received the policy's last save, or the policy's return,
//              whichever is later
//     horizon: h ms after the server received the one target save
//   judge(observed, boundary)   AS (a success indication shown by the boundary), the margin to the
//                               nearest target commit, and whether the outcome is timing-sensitive
//
//   speedSensitivity(timeline)  amendment 7's rule, in force once it is frozen (protocol.ts):
//                               timing-sensitive iff a machine speed in SPEED_RANGE changes the
//                               outcome (below); judge's flag stays the rule of the rows before it
//
// Timing-sensitive (amendments 1, 4 and 5): the success indication showed within 25 ms of the
// boundary; the boundary was set by the policy's return and the nearest target commit lies within
// 25 ms of it; a policy that looked once without waiting got its answer later than 25 ms before a
// late surface appeared; or the boundary was set by the policy's return and a target commit landed
// between the save-anchored boundary and that return.

import type { ProxyEvent } from '../../core/contracts.ts';
import { fcRuleOf, verdictOf, type ClaimLike, type Verdict } from '../../core/verdict.ts';

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

// ─── The exact timing-sensitivity rule (prereg/drafts/layers-amendment-7.md) ───────────────────
//
// A row is timing-sensitive iff some machine speed in SPEED_RANGE gives it another outcome (AS or
// VTS, and so FC). The speed model: the trace's recorded timeline is replayed with every
// machine-paced interval multiplied by one factor s, while the fault-paced intervals stay as they
// were. Machine-paced: the agent's own steps and the browser's work (rendering, a request's
// delivery and answer, a held answer's delivery after the server released it). Fault-paced: the
// server's hold of the surface (reveal_after_ms from the agent's beginning), a commit's delay after
// the receipt of the save it follows, the main boundary's 100 ms after the last save, the horizon,
// and the agent's own timed waits that ran out (a setTimeout lasts as long on any machine).
//
// Every moment of the replay is then an affine function a + b·s, so the outcome is a step function
// of s whose steps lie where two of those functions cross; evaluating it at every crossing inside
// the range, between them and at both ends decides exactly whether it is constant.
//
// Two things the replay keeps by cause, not by clock: a success indication the agent saw before it
// returned stays before its return, and a commit the agent read back from the server before it
// returned stays before its return (its checks continue until they see it). One decision the
// replay follows: a look-once agent (selector-only) that looks at a surface the server holds back;
// a speed at which its look lands on the other side of the surface's appearance takes the other
// branch — acting on the surface (on an Access condition the first entity is the target and its
// save commits at once: AS and VTS true) or not acting (nothing saved: AS and VTS false).

/** The registered speed range: a factor on every machine-paced interval (prereg/drafts/layers-amendment-7.md). */
export const SPEED_RANGE: SpeedRange = { min: 0.5, max: 4 };
export interface SpeedRange { min: number; max: number }

/** One target commit: when it takes effect, the receipt of the save it follows, and whether it holds the requested value. */
export interface CommitMoment { at: number; saveAt: number; matches: boolean }

/** Everything the exact rule reads: Observed with the moments amendment 7 records (all on the process clock). */
export interface Timeline extends Observed {
  commits: readonly CommitMoment[];
  /** the requested value was already the persisted one before any commit */
  initialMatches: boolean;
  /** the server's hold of the surface after the agent began (the Access fault), 0 for none */
  revealAfterMs: number;
  /** when a look-once agent sent its first look, and what it answered */
  firstLookStartedAt: number | null;
  firstLookSaw: boolean | null;
  /** the agent's own timed waits that ran out, [start, end] */
  timedWaits: readonly (readonly [number, number])[];
  /** when the agent saw the target's success indication (it returned after that) */
  successSeenAt: number | null;
  /** when the agent read the requested state back from the server (it returned after that) */
  confirmedAt: number | null;
}

/** a + b·s: a moment of the replay at speed factor s */
interface Line { a: number; b: number }
const at = (l: Line, s: number) => l.a + l.b * s;
/** x no later than y, up to the rounding of the replay's own arithmetic (a nanosecond) */
const noLater = (x: number, y: number) => x <= y + 1e-6;
const shift = (l: Line, k: number): Line => ({ a: l.a + k, b: l.b });

export interface Outcome { as: boolean; vts: boolean }

/** The replay's hidden choice: when inside its round trip the look-once agent's look was evaluated (default: the moment most prone to change). */
export interface Hidden { lookAt?: number }

function replay(o: Timeline, hidden: Hidden = {}) {
  const lines: Line[] = [];
  const keep = (l: Line) => (lines.push(l), l);
  const fixedBefore = (x: number) => o.timedWaits.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, x) - Math.max(a, o.t0)), 0);
  /** a moment on the agent's own chain: fixed waits stay, the rest scales */
  const pos = (x: number): Line => keep({ a: o.t0 + fixedBefore(x), b: x - o.t0 - fixedBefore(x) });
  const saves = [...o.saves].sort((a, b) => a - b);
  const lastSaveBefore = (x: number) => saves.filter((t) => t <= x).at(-1) ?? null;
  const main = o.scoring.kind === 'after-policy';
  const end = pos(o.tEnd);

  // the boundary: main, max(last save + B, return); horizon, first target save (or return) + h
  let boundary: Line[];
  if (o.scoring.kind === 'after-action') boundary = [keep(shift(pos(o.firstTargetSaveAt ?? o.tEnd), o.scoring.horizonMs))];
  else boundary = saves.length ? [keep(shift(pos(saves.at(-1)!), o.scoring.boundaryMs)), end] : [end];
  const boundaryAt = (s: number) => Math.max(...boundary.map((l) => at(l, s)));

  // commits follow their save by the fault's delay; one the agent read back stays before its return (main)
  const confirmed = (c: CommitMoment) => main && o.confirmedAt !== null && c.at <= o.confirmedAt && o.confirmedAt <= o.tEnd;
  const commits = o.commits.map((c) => ({ c, line: keep(shift(pos(c.saveAt), c.at - c.saveAt)), sure: confirmed(c) }));

  // the success indication follows the save whose answer showed it by the page's own (scaled) work
  const shown = o.successShownAt;
  const seen = main && shown !== null && o.successSeenAt !== null && shown <= o.successSeenAt && o.successSeenAt <= o.tEnd;
  let shownLine: Line | null = null;
  if (shown !== null) {
    const save = lastSaveBefore(shown);
    shownLine = save === null ? pos(shown) : keep({ a: pos(save).a, b: pos(save).b + (shown - save) });
  }

  // the look-once decision against a surface the server held back
  let look: { line: Line; reveal: Line; saw: boolean; strict: boolean } | null = null;
  if (o.revealAfterMs > 0 && o.revealedAt !== null && o.firstLookDone !== null && o.firstLookSaw !== null) {
    const start = o.firstLookStartedAt ?? o.t0;
    const released = o.t0 + o.revealAfterMs;
    const reveal = keep({ a: released, b: Math.max(0, o.revealedAt - released) });
    // the earliest (it saw) or latest (it did not) evaluation consistent with its answer; a look
    // that did not see the surface was evaluated before it, so at that bound only a later one counts
    const lookAt = hidden.lookAt ?? (o.firstLookSaw ? Math.min(o.firstLookDone, Math.max(start, o.revealedAt)) : Math.max(start, Math.min(o.firstLookDone, o.revealedAt)));
    const strict = hidden.lookAt === undefined && !o.firstLookSaw && lookAt >= o.revealedAt;
    look = { line: keep({ a: o.t0, b: lookAt - o.t0 }), reveal, saw: o.firstLookSaw, strict };
  }

  /** whether the look-once decision goes the other way at s */
  const sees = (s: number) => (look!.strict ? at(look!.reveal, s) < at(look!.line, s) - 1e-6 : noLater(at(look!.reveal, s), at(look!.line, s)));
  const lookFlips = (s: number) => look !== null && sees(s) !== look.saw;
  const outcomeAt = (s: number): Outcome => {
    // the branch not taken: not acting commits nothing; acting on an Access condition commits the
    // target at its save (VTS true; its success indication is then the page's, shown as AS true)
    if (lookFlips(s)) return look!.saw ? { as: false, vts: false } : { as: true, vts: true };
    const b = boundaryAt(s);
    const landed = commits.filter((x) => x.sure || noLater(at(x.line, s), b)).sort((x, y) => at(x.line, s) - at(y.line, s));
    const vts = landed.length ? landed.at(-1)!.c.matches : o.initialMatches;
    const as = shown !== null && (seen || noLater(at(shownLine!, s), b));
    return { as, vts };
  };
  return { lines, outcomeAt, lookFlips };
}

/** The outcome of the trace replayed at speed factor s (s = 1 is the recorded trace). */
export function outcomeAt(o: Timeline, s: number, hidden: Hidden = {}): Outcome {
  return replay(o, hidden).outcomeAt(s);
}

export interface SpeedJudged {
  timingSensitive: boolean;
  /** a factor in the range at which the outcome differs from the recorded one, if any */
  witness: number | null;
  /** the outcome at that factor */
  other: Outcome | null;
  /** what changes there: the look-once decision, or the order of the boundary and a commit or the success indication */
  reason: 'look' | 'boundary' | null;
}

/** Amendment 7's rule: is the outcome the same at every speed factor in the range? Exact: see the header. */
export function speedSensitivity(o: Timeline, range: SpeedRange = SPEED_RANGE, hidden: Hidden = {}): SpeedJudged {
  const { lines, outcomeAt: out, lookFlips } = replay(o, hidden);
  const points = [range.min, range.max, 1];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const db = lines[i]!.b - lines[j]!.b;
      if (db === 0) continue;
      const s = (lines[j]!.a - lines[i]!.a) / db;
      if (s > range.min && s < range.max) points.push(s);
    }
  }
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  // between crossings first (a change there holds on an interval), then the ends and the crossings
  // themselves (a tie counts: a commit at the boundary is in)
  const probes = [...sorted.slice(1).map((s, i) => (sorted[i]! + s) / 2), ...sorted];
  const recorded = out(1);
  for (const s of probes) {
    const o2 = out(s);
    if (o2.as !== recorded.as || o2.vts !== recorded.vts) return { timingSensitive: true, witness: s, other: o2, reason: lookFlips(s) ? 'look' : 'boundary' };
  }
  return { timingSensitive: false, witness: null, other: null, reason: null };
}

/** Which flag rule a row is made with: amendments 1, 4 and 5 (`registered`), or amendment 7's `speed` rule. */
export type FlagRule = 'amendment-5' | 'speed';

/** The moments a row keeps under amendment 7 (schemas/trace.schema.json `moments`: ms after the agent began). */
export interface RowMoments {
  returned: number; saves: number[]; first_target_save?: number | null; commits: { at: number; save: number; matches: boolean }[]; initial_matches: boolean;
  reveal_after_ms: number; success_shown: number | null; success_seen: number | null; confirmed: number | null; revealed: number | null;
  look: { started: number | null; done: number; saw: boolean } | null; timed_waits: number[][];
}

/** A row's timeline again, from its moments: either rule can be recomputed from the row alone. */
export function timelineOfRow(row: { arm: string; horizon_ms: number; moments: RowMoments }): Timeline {
  const m = row.moments;
  return {
    scoring: row.arm === 'horizon' ? { kind: 'after-action', horizonMs: row.horizon_ms } : { kind: 'after-policy', boundaryMs: row.horizon_ms },
    t0: 0,
    tEnd: m.returned,
    saves: m.saves,
    firstTargetSaveAt: m.first_target_save ?? null,
    targetCommits: m.commits.map((c) => c.at),
    successShownAt: m.success_shown,
    revealedAt: m.revealed,
    firstLookDone: m.look?.done ?? null,
    commits: m.commits.map((c) => ({ at: c.at, saveAt: c.save, matches: c.matches })),
    initialMatches: m.initial_matches,
    revealAfterMs: m.reveal_after_ms,
    firstLookStartedAt: m.look?.started ?? null,
    firstLookSaw: m.look?.saw ?? null,
    timedWaits: m.timed_waits.map(([a, b]) => [a!, b!] as const),
    successSeenAt: m.success_seen,
    confirmedAt: m.confirmed,
  };
}

// ─── The applications behind the fault proxy (arms real-apps and transport) ────────────────────
//
// prereg/layers-real-apps.md and its amendment 1. The store is the app's database, read once at the
// boundary; what happened to each write is the proxy's log, on the harness's clock.
//
//   realAppBoundaryOf(moments)      BOUNDARY_MS after the latest of the agent's return, the browser's
//                                   answer to its last write, and the load of the document that
//                                   answer led to (a redirect shows its notice on the next page)
//   realAppTimingSensitive(...)     the read came within TIMING_SENSITIVE_MS of a write being at the
//                                   app, or the notice within it of the boundary; from version 2 also a
//                                   held write that reached the app within HELD_NEAR_READ_MS of the read
//
// The same arms on the small apps (arm transport's small-app rows) are scored by the main rule above.

export const REAL_APPS = {
  /** prereg/layers-real-apps.md: ms after the last of the agent's return, the answer to its last write, and the document that answer led to */
  boundaryMs: 500,
  /** a write at the application within this many ms of the read, or the notice shown within it of the boundary: timing-sensitive */
  timingSensitiveMs: 50,
  /**
   * Version 2: how near the read a held write's arrival at the app makes a row timing-sensitive. The
   * v2 smoke runs in Chromium at one and two workers (data/excluded/layers/real-apps/, 20261206) gave
   * three units whose VTS differed, all verification-aware under State at 6 s, each with a held write
   * 43 to 1231 ms from the read; this window flags each of them in at least one run, and 3 and 4 of 72 rows.
   */
  heldNearReadMs: 1000,
} as const;

/** One write of the condition as the proxy handled it, on the harness's clock. */
export interface WriteRecord {
  t: number;
  action: 'pass' | 'answered' | 'dropped' | 'error' | 'failed' | 'lost';
  status: number | null;
  /** when the answer left for the browser */
  answered: number | null;
  reachedApp: number | null;
  appAnswered: number | null;
}

/** The condition's writes from the proxy's log: a held write's later forwarding folded into the write it holds. */
export function writesOf(log: readonly ProxyEvent[]): WriteRecord[] {
  const late = new Map(log.filter((e) => e.action === 'forwarded-late' && e.of !== undefined).map((e) => [e.of!, e]));
  const kinds = new Set(['pass', 'answered', 'dropped', 'error', 'failed', 'lost']);
  return log.filter((e) => e.write && kinds.has(e.action)).map((e) => {
    const forwarded = late.get(e.id);
    const passed = e.action === 'pass';
    // lost: it reached the app, which answered; the browser got nothing
    if (e.action === 'lost') return { t: e.t, action: 'lost', status: null, answered: null, reachedApp: e.t, appAnswered: e.appAnsweredAt ?? null };
    return {
      t: e.t,
      action: e.action as WriteRecord['action'],
      status: e.status,
      answered: e.answeredAt ?? null,
      reachedApp: passed ? e.t : (forwarded?.t ?? null),
      appAnswered: passed ? (e.answeredAt ?? null) : (forwarded?.answeredAt ?? null),
    };
  });
}

export interface TraceMoments {
  t0: number;
  tEnd: number;
  writes: readonly WriteRecord[];
  successShownAt: number | null;
  /** each document's load event in the agent's tab */
  loads: readonly number[];
}

export interface RealAppBoundary { at: number; setBy: 'save' | 'return' | 'page' }

/**
 * The scoring boundary: REAL_APPS.boundaryMs after the latest of the agent's return, the browser's
 * answer to the agent's last write, and the load of the document that answer led to (a write
 * answered by a redirect shows its notice on the next page; a client-rendered app shows it on the
 * page it is on): the page has had as long to show what it shows, whatever the agent did.
 */
export function realAppBoundaryOf(m: Pick<TraceMoments, 'tEnd' | 'writes' | 'loads'>): RealAppBoundary {
  const answered = m.writes.map((w) => w.answered).filter((t): t is number => t !== null);
  const candidates: { t: number; setBy: RealAppBoundary['setBy'] }[] = [{ t: m.tEnd, setBy: 'return' }];
  if (answered.length) {
    const last = Math.max(...answered);
    candidates.push({ t: last, setBy: 'save' });
    const next = m.loads.filter((t) => t > last).sort((a, b) => a - b)[0];
    if (next !== undefined) candidates.push({ t: next, setBy: 'page' });
  }
  const latest = candidates.reduce((a, b) => (b.t > a.t ? b : a));
  return { at: latest.t + REAL_APPS.boundaryMs, setBy: latest.setBy };
}

/**
 * Timing-sensitive: the read came within REAL_APPS.timingSensitiveMs of a write being at the
 * application (from its arrival there to the application's answer, before which it may or may not
 * have committed), or the notice showed within it of the boundary: a somewhat faster or slower
 * machine could have given the other outcome. Version 2 adds held writes near the read.
 */
export function realAppTimingSensitive(m: Pick<TraceMoments, 'writes' | 'successShownAt'>, boundary: Pick<RealAppBoundary, 'at'>, readAt: number, version = 1): boolean {
  const near = REAL_APPS.timingSensitiveMs;
  const atAppNearRead = m.writes.some((w) => w.reachedApp !== null && readAt >= w.reachedApp - near && (w.appAnswered === null || readAt <= w.appAnswered + near));
  const noticeNear = m.successShownAt !== null && Math.abs(boundary.at - m.successShownAt) <= near;
  // version 2 (prereg/layers-real-apps-amendment-1.md): a write the proxy held (State) that reached
  // the app within heldNearReadMs of the read, before or after it: a policy a second faster or
  // slower (another load, another worker count) reads on the other side of it
  const heldNearRead = version >= 2 && m.writes.some((w) => w.action === 'answered' && w.reachedApp !== null && Math.abs(w.reachedApp - readAt) <= REAL_APPS.heldNearReadMs);
  return atAppNearRead || noticeNear || heldNearRead;
}

// ─── A registered row, scored again from what it keeps ──────────────────────────────────────────

/** The fields of a layers row the re-scoring reads (schemas/trace.schema.json). */
export interface ScoredRow {
  arm: string; arm_version?: number; horizon_ms: number; apparent_success: boolean; vts: boolean; false_completion: boolean;
  claim?: ClaimLike | null; claim_false_completion?: boolean; ended_done?: boolean; false_abandonment?: boolean;
  timing_sensitive: boolean; flag_rule?: 'speed'; moments?: RowMoments; boundary?: string;
  persisted: { value: unknown }; target: { value: unknown };
  real_app?: {
    writes: { t: number; action: WriteRecord['action']; status: number | null; reached_app: number | null; app_answered: number | null }[];
    success_shown: number | null; boundary_at: number; read_at: number;
  };
}

/**
 * Every verdict of a row that its own fields decide, by the one module: AS, VTS and the timing flag
 * from its moments (the speed rule's replay at ×1, or the real apps' boundary, read and writes), the
 * false completions from AS, VTS and the claim. What the row does not keep (the small apps' rows made
 * before amendment 7 keep no moments) is not recomputed: `from` names what was.
 */
export function rescoreRow(row: ScoredRow): { verdict: Verdict; timingSensitive: boolean | null; from: 'moments' | 'real-app' | 'verdict-only' } {
  let as = row.apparent_success;
  let vts = row.vts;
  let timing: boolean | null = null;
  let from: 'moments' | 'real-app' | 'verdict-only' = 'verdict-only';
  if (row.real_app) {
    const r = row.real_app;
    const writes = r.writes.map((w) => ({ t: w.t, action: w.action, status: w.status, answered: null, reachedApp: w.reached_app, appAnswered: w.app_answered }));
    as = r.success_shown !== null && r.success_shown <= r.boundary_at;
    vts = row.persisted.value === row.target.value;
    timing = realAppTimingSensitive({ writes, successShownAt: r.success_shown }, { at: r.boundary_at }, r.read_at, row.arm_version ?? 1);
    from = 'real-app';
  } else if (row.flag_rule === 'speed' && row.moments) {
    const timeline = timelineOfRow({ arm: row.arm, horizon_ms: row.horizon_ms, moments: row.moments });
    ({ as, vts } = outcomeAt(timeline, 1));
    timing = speedSensitivity(timeline).timingSensitive;
    from = 'moments';
  }
  return { verdict: verdictOf({ apparentSuccess: as, vts, claim: 'claim' in row ? row.claim : undefined, rule: fcRuleOf(row) }), timingSensitive: timing, from };
}
