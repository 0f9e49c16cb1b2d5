// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Amendment 7's exact timing-sensitivity rule on hand-built timelines (no browser, every time chosen
// by hand), and its "iff" against an independent simulation of the reference policies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundaryOf, judge, outcomeAt, speedSensitivity, SPEED_RANGE, type Timeline } from '../../../pipeline/layers/scoring.ts';

const main = { kind: 'after-policy', boundaryMs: 100 } as const;
const blank: Timeline = {
  scoring: main, t0: 0, tEnd: 50, saves: [], firstTargetSaveAt: null, targetCommits: [], successShownAt: null, revealedAt: null, firstLookDone: null,
  commits: [], initialMatches: false, revealAfterMs: 0, firstLookStartedAt: null, firstLookSaw: null, timedWaits: [], successSeenAt: null, confirmedAt: null,
};
/** one save of the target received at `save`, committing `delay` ms later with the requested value */
const oneSave = (save: number, delay: number | null): Partial<Timeline> => ({
  saves: [save],
  firstTargetSaveAt: save,
  commits: delay === null ? [] : [{ at: save + delay, saveAt: save, matches: true }],
  targetCommits: delay === null ? [] : [save + delay],
});
const tl = (...parts: Partial<Timeline>[]): Timeline => Object.assign({}, blank, ...parts);
const oldRule = (o: Timeline) => judge(o, boundaryOf(o)).timingSensitive;
const exact = (o: Timeline) => speedSensitivity(o);

test('the issue: a single-save verification-aware State success is flagged by amendment 5 and not by the exact rule', () => {
  // save received at 200, commit at 320 (severity 1); "Saved" shown at 205 and seen at 215; a reload
  // at 260 reads the old state, the policy waits 250 ms (its own timer), reloads and reads the commit
  const o = tl(oneSave(200, 120), { successShownAt: 205, successSeenAt: 215, timedWaits: [[300, 550]], confirmedAt: 610, tEnd: 640 });
  assert.equal(boundaryOf(o).setBy, 'return');
  assert.equal(oldRule(o), true, 'amendment 5 flags the commit that landed before the return');
  assert.deepEqual(outcomeAt(o, 1), { as: true, vts: true });
  assert.equal(exact(o).timingSensitive, false, 'it returned only after reading the commit back: no speed can change that');
  // a quick machine: its first reload already read the commit, 150 ms after the save
  const quick = tl(oneSave(200, 120), { successShownAt: 205, successSeenAt: 215, confirmedAt: 340, tEnd: 350 });
  assert.equal(oldRule(quick), true);
  assert.equal(exact(quick).timingSensitive, false);
  // the same moments without the read-back (an agent that returned as late, blind): ×0.5 returns at 75 ms
  const blind = exact(tl(quick, { confirmedAt: null }));
  assert.equal(blind.timingSensitive, true);
  assert.deepEqual(blind.other, { as: true, vts: false });
});

test('the issue: late-return semantic-recovery State successes (Firefox) are flagged — a faster machine scores them at the save', () => {
  // cards-state-16, profile-state-04, modal-state-07: the return came 175 / 155 / 162 ms after the
  // save's receipt, so the 120 ms commit landed before it (margins 53.8 / 34.7 / 41.5 ms as registered)
  for (const [id, tail] of [['cards-state-16', 173.8], ['profile-state-04', 154.7], ['modal-state-07', 161.5]] as const) {
    const o = tl(oneSave(470, 120), { successShownAt: 480, successSeenAt: 490, tEnd: 470 + tail });
    assert.equal(outcomeAt(o, 1).vts, true, id);
    const r = exact(o);
    assert.equal(r.timingSensitive, true, id);
    assert.ok(r.witness! < 1 && r.witness! >= SPEED_RANGE.min, `${id}: a faster machine (×${r.witness})`);
    assert.deepEqual(r.other, { as: true, vts: false }, id);
    assert.equal(oldRule(o), true, `${id}: amendment 5 flags it too (amendment 4, which made the registered rows, did not)`);
  }
});

test('semantic recovery returning quickly after its save: flagged only if the slowest speed carries the return past the commit', () => {
  const at = (tail: number) => tl(oneSave(100, 120), { successShownAt: 104, successSeenAt: 106, tEnd: 100 + tail });
  assert.equal(exact(at(29)).timingSensitive, false, '×4 of 29 ms is 116 ms: still before the 120 ms commit');
  const r = exact(at(30));
  assert.equal(r.timingSensitive, true, '×4 of 30 ms reaches the commit exactly (a commit at the boundary counts)');
  assert.equal(r.witness, 4);
  assert.equal(exact(at(200)).timingSensitive, true, 'a return 200 ms late: ×0.5 puts the boundary back at the save');
  assert.equal(exact(at(300)).timingSensitive, false, '×0.5 of 300 ms is still past the commit');
});

test('a commit just inside or just outside the save-anchored boundary, whatever the speed', () => {
  // a policy that returns at once: the boundary is 100 ms after the save on every machine
  assert.deepEqual(outcomeAt(tl(oneSave(0, 100), { tEnd: 10 }), 1), { as: false, vts: true });
  assert.equal(exact(tl(oneSave(0, 100), { tEnd: 10 })).timingSensitive, false, 'commit at the boundary: inside at any speed');
  assert.equal(exact(tl(oneSave(0, 100.5), { tEnd: 10 })).timingSensitive, false, 'just outside at any speed (×4 of 10 ms is 40)');
  // Verification: a commit at the N-th save's receipt, counted by saves, never by time
  const twoSaves = tl({ saves: [0, 500], firstTargetSaveAt: 0, commits: [{ at: 500, saveAt: 500, matches: true }], targetCommits: [500], tEnd: 510 });
  assert.equal(exact(twoSaves).timingSensitive, false);
});

test('AS: a success indication the policy never waited for follows the page against a save-anchored boundary', () => {
  // selector-only: its click returned 5 ms after the save, the page showed success 30 ms after it
  const slowPage = tl(oneSave(0, null), { successShownAt: 30, tEnd: 5 });
  const r = exact(slowPage);
  assert.equal(r.timingSensitive, true, '×4 of 30 ms is past the 100 ms boundary');
  assert.deepEqual(r.other, { as: false, vts: false });
  assert.equal(exact(tl(slowPage, { successShownAt: 25 })).timingSensitive, false, '×4 of 25 ms is exactly the boundary');
  assert.equal(exact(tl(slowPage, { successShownAt: 30, successSeenAt: 31, tEnd: 32 })).timingSensitive, false, 'seen before returning: it stays before the return');
});

test('a look-once policy facing a late surface', () => {
  const access = { revealAfterMs: 70 };
  // looked at 5–15 ms, the surface rendered at 78 (released at 70, 8 ms to render): it saw nothing
  const early = tl(access, { revealedAt: 78, firstLookStartedAt: 5, firstLookDone: 15, firstLookSaw: false, tEnd: 16 });
  assert.equal(exact(early).timingSensitive, false, 'even ×4 (60 ms) looks before the surface (70 + 32 ms)');
  // a slower look (40–60 ms): ×4 of it lands after the surface
  const close = tl(early, { firstLookStartedAt: 40, firstLookDone: 60, tEnd: 61 });
  const r = exact(close);
  assert.equal(r.timingSensitive, true);
  assert.deepEqual(r.other, { as: true, vts: true }, 'the branch that acts commits the target');
  // a look that started after the surface and saw it: ×0.5 would have looked before it
  const late = tl(access, oneSave(120, 0), { revealedAt: 75, firstLookStartedAt: 80, firstLookDone: 95, firstLookSaw: true, successShownAt: 122, tEnd: 124 });
  assert.deepEqual(outcomeAt(late, 1), { as: true, vts: true });
  assert.equal(exact(late).timingSensitive, true);
  assert.equal(oldRule(late), true, 'amendment 4 flags it too');
  // a very slow look (300 ms) that saw it: even ×0.5 (150 ms) comes after 70 + 2.5 ms
  const slow = tl(access, oneSave(320, 0), { revealedAt: 75, firstLookStartedAt: 300, firstLookDone: 310, firstLookSaw: true, successShownAt: 322, tEnd: 324 });
  assert.equal(exact(slow).timingSensitive, false);
  assert.equal(oldRule(slow), true, 'amendment 4 flags every late look that saw the surface');
  // a surface there from the start (no Access fault) is no decision at all
  assert.equal(exact(tl(slow, { revealAfterMs: 0 })).timingSensitive, false);
});

test('the horizon arm: the boundary is anchored at the action, so the commit is decided by the fault alone', () => {
  const horizon = (h: number) => ({ scoring: { kind: 'after-action', horizonMs: h } as const });
  // State severity 1 (120 ms) at h = 150: inside at any speed; at h = 50: outside at any speed
  for (const [h, vts] of [[150, true], [50, false], [120, true]] as const) {
    const o = tl(horizon(h), oneSave(10, 120), { successShownAt: 12, successSeenAt: 13, tEnd: 900 });
    assert.equal(outcomeAt(o, 1).vts, vts, `h = ${h}`);
    assert.equal(exact(o).timingSensitive, false, `h = ${h}: a late return does not move the boundary`);
  }
  // AS at h = 50: the page's 20 ms to show success becomes 80 ms at ×4, past the horizon
  const slowPage = tl(horizon(50), oneSave(10, 120), { successShownAt: 30, successSeenAt: 31, tEnd: 40 });
  assert.equal(exact(slowPage).timingSensitive, true, 'seeing it does not help: the boundary does not wait for the return');
  assert.equal(exact(tl(slowPage, { successShownAt: 22 })).timingSensitive, false, '12 ms ×4 = 48 ms');
  // no action at all: scored h ms after the return, nothing to change
  assert.equal(exact(tl(horizon(50), { tEnd: 3000 })).timingSensitive, false);
});

test('the policy\'s own timed waits do not scale: 400 ms swallowed-click waits before the save', () => {
  // an Action-layer save after two ignored activations and two 400 ms waits: no commit delay, nothing to change
  const o = tl(oneSave(900, 0), { timedWaits: [[50, 450], [460, 860]], successShownAt: 905, successSeenAt: 906, tEnd: 920 });
  assert.equal(exact(o).timingSensitive, false);
  // a commit pending across a timed wait after the save: the fixed 250 ms keeps the return past it
  const waited = tl(oneSave(0, 320), { timedWaits: [[10, 340]], successShownAt: 4, successSeenAt: 5, tEnd: 350 });
  assert.equal(exact(waited).timingSensitive, false, '×0.5 still returns at 340 ms (330 of them its own timer), after the 320 ms commit');
  assert.equal(exact(tl(waited, { timedWaits: [] })).timingSensitive, true, 'were the wait machine-paced, ×0.5 would return at 175 ms');
});

// ─── the "iff": an independent simulation of the reference policies ───────────────────────────
// Each simulated trace is a set of fault parameters and machine-paced step durations; sim(p, s)
// runs the policy with every step scaled by s, the fault delays and the policy's own timers fixed,
// and returns the outcome and (at s = 1) the recorded timeline. Nothing here calls the replay.

// settle: semantic recovery, then one passive 250 ms wait and return without checking (a policy whose
// own timer, not its speed, carries its return past a pending commit)
type Policy = 'selector' | 'semantic' | 'verifier' | 'single' | 'settle';
interface Params {
  policy: Policy; layer: 'access' | 'state' | 'verification' | 'action' | 'perception' | 'baseline';
  D: number; d: number; N: number; ignore: number; h: number;
  m: { start: number; eval: number; ret: number; prep: number; render: number; click: number; tail: number; reload: number; read: number; deliver: number };
}

export function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => ((x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

export function sim(p: Params, s: number) {
  const m = Object.fromEntries(Object.entries(p.m).map(([k, v]) => [k, v * s])) as Params['m'];
  const saves: number[] = [];
  const commits: { at: number; saveAt: number; matches: boolean }[] = [];
  const timedWaits: [number, number][] = [];
  let shown: number | null = null, seen: number | null = null, confirmed: number | null = null, firstTarget: number | null = null;
  let ignored = 0, equal = 0;
  const reveal = p.D > 0 ? p.D + m.deliver : -Infinity;
  /** a save of the target (or a decoy) sent so that the server receives it at t; returns whether it was taken */
  const save = (t: number, target: boolean) => {
    if (target && ignored < p.ignore) { ignored++; return false; }
    saves.push(t);
    shown ??= t + m.render;
    if (!target) return true;
    firstTarget ??= t;
    if (++equal >= p.N) commits.push({ at: t + p.d, saveAt: t, matches: true });
    return true;
  };
  const stateHolds = (t: number) => commits.some((c) => c.at <= t);
  let t = 0, look: { start: number; done: number; saw: boolean } | null = null;
  /** semantic recovery's bind-and-commit from t; returns the moment it returned */
  const bindAndCommit = (from: number, attempts: number) => {
    let now = Math.max(from, reveal) + m.prep;
    for (let a = 0; a < attempts; a++) {
      const taken = save(now, true);
      const clickBack = now + m.click;
      if (taken) { seen = Math.max(clickBack, shown!); return seen; }
      timedWaits.push([clickBack, clickBack + 400]);
      now = clickBack + 400 + m.prep;
    }
    return now;
  };
  if (p.policy === 'selector') {
    const start = m.start, at = start + m.eval, done = at + m.ret;
    look = { start, done, saw: at >= reveal };
    t = done;
    if (look.saw) { const sv = done + m.prep; save(sv, p.layer !== 'perception'); t = sv + m.click; }
  } else if (p.policy === 'semantic' || p.policy === 'single') {
    t = bindAndCommit(m.start, p.policy === 'single' ? 1 : 5) + m.tail;
  } else if (p.policy === 'settle') {
    t = bindAndCommit(m.start, 5) + m.read;
    timedWaits.push([t, t + 250]);
    t += 250 + m.tail;
  } else {
    t = bindAndCommit(m.start, 5);
    for (let check = 0; check < 8; check++) {
      const served = t + m.reload; // the server serves the reloaded page: the summary's state
      t = served + m.read;
      if (stateHolds(served)) { confirmed = t; break; }
      if (check % 2 === 0) { timedWaits.push([t, t + 250]); t += 250; }
      else t = bindAndCommit(t, 5);
    }
    t += m.tail;
  }
  const tEnd = t;
  const B = p.policy === 'single' ? (firstTarget ?? tEnd) + p.h : saves.length ? Math.max(Math.max(...saves) + 100, tEnd) : tEnd;
  const outcome = { as: shown !== null && shown <= B, vts: commits.some((c) => c.at <= B) };
  const timeline: Timeline = {
    scoring: p.policy === 'single' ? { kind: 'after-action', horizonMs: p.h } : main,
    t0: 0, tEnd, saves, firstTargetSaveAt: firstTarget, targetCommits: commits.map((c) => c.at), successShownAt: shown, revealedAt: p.D > 0 ? reveal : null,
    firstLookDone: look?.done ?? null, commits, initialMatches: false, revealAfterMs: p.D, firstLookStartedAt: look?.start ?? null, firstLookSaw: look?.saw ?? null,
    timedWaits, successSeenAt: seen, confirmedAt: confirmed,
  };
  return { outcome, timeline, lookAt: look ? m.start + m.eval : undefined };
}

export function draw(r: () => number): Params {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const policy = pick(['selector', 'semantic', 'verifier', 'single', 'settle'] as const);
  const layer = policy === 'single' ? pick(['state', 'verification'] as const) : pick(['access', 'state', 'verification', 'action', 'perception', 'baseline'] as const);
  const sev = pick([0, 1, 2] as const);
  const ms = (hi: number) => r() * hi; // unrounded: no exact ties between the sim's and the replay's arithmetic
  return {
    policy, layer,
    D: layer === 'access' ? [70, 180, 420][sev]! : 0,
    d: layer === 'state' ? [120, 320, 700][sev]! : 0,
    N: layer === 'verification' ? [2, 3, 3][sev]! : 1,
    ignore: layer === 'action' ? sev + 1 : 0,
    h: pick([50, 150, 350, 750, 1000]),
    m: { start: ms(120), eval: ms(60), ret: ms(60), prep: ms(150), render: ms(60), click: ms(80), tail: ms(120), reload: ms(150), read: ms(40), deliver: ms(30) },
  };
}

test('iff: on 1500 simulated traces the rule flags exactly those whose simulated outcome changes somewhere in the range', () => {
  const r = rng(20261130);
  const grid = Array.from({ length: 71 }, (_, i) => SPEED_RANGE.min + ((SPEED_RANGE.max - SPEED_RANGE.min) * i) / 70);
  let flagged = 0, missedByGrid = 0;
  for (let i = 0; i < 1500; i++) {
    const p = draw(r);
    const rec = sim(p, 1);
    const judged = speedSensitivity(rec.timeline, SPEED_RANGE, { lookAt: rec.lookAt });
    assert.deepEqual(outcomeAt(rec.timeline, 1), rec.outcome, `trace ${i}: the replay at ×1 without the hidden moment too`);
    assert.deepEqual(outcomeAt(rec.timeline, 1, { lookAt: rec.lookAt }), rec.outcome, `trace ${i}: the replay at ×1 is the recorded outcome`);
    const differs = (s: number) => { const o = sim(p, s).outcome; return o.as !== rec.outcome.as || o.vts !== rec.outcome.vts; };
    if (judged.timingSensitive) {
      flagged++;
      assert.ok(judged.witness! >= SPEED_RANGE.min && judged.witness! <= SPEED_RANGE.max, `trace ${i}: witness ×${judged.witness} in the range`);
      assert.ok(differs(judged.witness!), `trace ${i} (${p.policy}, ${p.layer}): flagged, but the simulation at ×${judged.witness} gives the same outcome`);
      // where the look flips to acting, the replay knows VTS (the target commits at its save) but
      // not how fast the page would have shown success in a branch it never recorded
      const other = sim(p, judged.witness!).outcome;
      if (judged.reason === 'look' && !rec.timeline.firstLookSaw) assert.equal(other.vts, judged.other!.vts, `trace ${i}`);
      else assert.deepEqual(other, judged.other, `trace ${i}: the rule's other outcome is the simulation's`);
      if (!grid.some(differs)) missedByGrid++;
    } else {
      for (const s of grid) assert.ok(!differs(s), `trace ${i} (${p.policy}, ${p.layer}): not flagged, but ×${s} changes the outcome`);
    }
  }
  // the draw must exercise both answers, or the test proves nothing
  assert.ok(flagged > 100 && flagged < 1400, `${flagged} of 1500 flagged`);
  assert.ok(missedByGrid < flagged, 'most flagged traces change on the coarse grid too');
});

test('the look-once rule without the hidden moment takes the evaluation most prone to change (the "could")', () => {
  const r = rng(7);
  let n = 0;
  for (let i = 0; i < 6000 && n < 300; i++) {
    const p = draw(r);
    if (p.policy !== 'selector' || p.layer !== 'access') continue;
    n++;
    const rec = sim(p, 1);
    const withHidden = speedSensitivity(rec.timeline, SPEED_RANGE, { lookAt: rec.lookAt }).timingSensitive;
    const without = speedSensitivity(rec.timeline).timingSensitive;
    assert.ok(without || !withHidden, 'unknown moment: flagged whenever the known one would be');
  }
  assert.ok(n >= 100, `${n} look-once traces on a late surface`);
});
