// Evidence verdicts are pure functions of the recorded timeline (DESIGN.md), so the reanalysis can
// compute each one again from `events` and require the recorded verdict. The functions are not
// written here: they are the evidence study's own (the five of the verifier, verifier/src/policies.ts,
// and Arm B's, core/evidence/production.ts), looked up by policy name in a registry
// (verdict-registry.ts) so that the check runs the very code the runs ran.
import type { EvidenceRow, Located, TimelineEvent, Verdict } from './rows.ts';
import type { TableRow } from './tables.ts';

/** An evidence policy: a pure function from the timeline of one trial (and, for a verdict that is a record's end, the row) to its verdict. */
export type VerdictFn = (events: readonly TimelineEvent[], row?: EvidenceRow) => Verdict;

export interface VerdictRegistry {
  /** The function that made `policy`'s verdicts in `arm`, or undefined when none is registered. */
  get(arm: string, policy: string): VerdictFn | undefined;
}

/**
 * A registry from plain maps: `all` holds the policies every arm shares; an arm's own map (e.g.
 * 'arm-b') adds its policies and overrides a shared name for that arm only.
 */
export function verdictRegistry(maps: { all?: Record<string, VerdictFn> } & Record<string, Record<string, VerdictFn> | undefined>): VerdictRegistry {
  return {
    get(arm, policy) {
      const own = maps[arm];
      if (own && Object.hasOwn(own, policy)) return own[policy];
      return maps.all && Object.hasOwn(maps.all, policy) ? maps.all[policy] : undefined;
    },
  };
}

const sameLatency = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)));
const fmt = (v: Verdict) => `accept=${v.accept}, latency_ms=${v.latency_ms}`;

/** At most this many mismatching rows are named per policy; the table counts all of them. */
const namedPerPolicy = 5;

export interface VerdictCheck { rows: TableRow[]; problems: string[] }

/** Recomputes every recorded verdict whose function is registered; names every row that differs. */
export function checkVerdicts(rows: Located<EvidenceRow>[], registry: VerdictRegistry, rel: (file: string) => string): VerdictCheck {
  const groups = new Map<string, TableRow & { rows: number; rechecked: number; accept_mismatch_n: number; latency_mismatch_n: number }>();
  const problems: string[] = [];
  const named = new Map<string, number>();
  for (const { row, file, line } of rows) {
    for (const [policy, recorded] of Object.entries(row.verdicts)) {
      const id = JSON.stringify([row.arm, row.browser.name, policy]);
      let g = groups.get(id);
      if (!g) groups.set(id, (g = { arm: row.arm, browser: row.browser.name, policy, rows: 0, rechecked: 0, accept_mismatch_n: 0, latency_mismatch_n: 0, status: '' }));
      g.rows++;
      const fn = registry.get(row.arm, policy);
      if (!fn) continue;
      let again: Verdict;
      try {
        again = fn(row.events, row);
      } catch (cause) {
        problems.push(`${rel(file)}:${line}: policy ${policy} threw while recomputing its verdict: ${(cause as Error).message}`);
        g.accept_mismatch_n++;
        continue;
      }
      g.rechecked++;
      const acceptDiffers = again.accept !== recorded.accept;
      const latencyDiffers = !sameLatency(again.latency_ms, recorded.latency_ms);
      if (acceptDiffers) g.accept_mismatch_n++;
      if (latencyDiffers) g.latency_mismatch_n++;
      if (acceptDiffers || latencyDiffers) {
        const n = (named.get(id) ?? 0) + 1;
        named.set(id, n);
        if (n <= namedPerPolicy) problems.push(`${rel(file)}:${line}: policy ${policy} recorded ${fmt(recorded)}; recomputed from events: ${fmt(again)}`);
      }
    }
  }
  const out: TableRow[] = [];
  for (const [id, g] of groups) {
    if (g.rechecked === 0) {
      g.status = 'no function registered';
      problems.push(`evidence policy ${g.policy} (arm ${g.arm}, ${g.browser}): no verdict function registered, so its ${g.rows} recorded verdicts cannot be recomputed; register it in analysis/verdict-registry.ts`);
    } else if (g.accept_mismatch_n || g.latency_mismatch_n) {
      g.status = 'mismatch';
      const n = named.get(id) ?? 0;
      if (n > namedPerPolicy) problems.push(`evidence policy ${g.policy} (arm ${g.arm}, ${g.browser}): ${n - namedPerPolicy} more mismatching rows not named above`);
    } else g.status = 'ok';
    out.push({ ...g });
  }
  const order = ['controlled', 'arm-a', 'arm-b'];
  const rank = (arm: unknown) => { const i = order.indexOf(String(arm)); return i < 0 ? order.length : i; };
  // code-unit order, as DuckDB's ORDER BY, never the locale's
  const cmp = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  out.sort((a, b) => rank(a.arm) - rank(b.arm) || cmp(a.arm, b.arm) || cmp(a.browser, b.browser) || cmp(a.policy, b.policy));
  return { rows: out, problems };
}
