// The evidence study's summary, from trace rows alone (the run prints it on exit; analysis/
// recomputes it): per policy, false accepts among the true failures and false rejects among the
// true successes with Wilson 95% intervals, mean and median verdict latency, accepts per
// scenario; and paired comparisons with exact McNemar tests on discordant rows.
import { mcnemarExact, mean, median, wilson, type Interval } from '../stats.ts';
import { policyIds, type PolicyId, type Verdict } from './policies.ts';

export interface SummaryRow {
  condition_id: string;
  scenario: string;
  truth: 'success' | 'failure';
  verdicts: Record<string, Verdict>;
}

export interface Rate { k: number; n: number; interval: Interval }
export interface PolicySummary {
  false_accepts: Rate;
  false_rejects: Rate;
  latency: { n: number; mean: number | null; median: number | null };
  accepts_by_scenario: Record<string, { accepted: number; rows: number }>;
}

export interface Summary { rows: number; failures: number; successes: number; policies: Record<PolicyId, PolicySummary> }

const rate = (k: number, n: number): Rate => ({ k, n, interval: wilson(k, n) });
const correct = (row: SummaryRow, policy: string) => row.verdicts[policy]!.accept === (row.truth === 'success');

export function summarize(rows: readonly SummaryRow[]): Summary {
  const failures = rows.filter((r) => r.truth === 'failure');
  const successes = rows.filter((r) => r.truth === 'success');
  const policies = {} as Record<PolicyId, PolicySummary>;
  for (const id of policyIds) {
    const latencies = rows.map((r) => r.verdicts[id]!.latency_ms).filter((x): x is number => x !== null);
    const byScenario: Record<string, { accepted: number; rows: number }> = {};
    for (const r of rows) {
      const cell = (byScenario[r.scenario] ??= { accepted: 0, rows: 0 });
      cell.rows++;
      if (r.verdicts[id]!.accept) cell.accepted++;
    }
    policies[id] = {
      false_accepts: rate(failures.filter((r) => r.verdicts[id]!.accept).length, failures.length),
      false_rejects: rate(successes.filter((r) => !r.verdicts[id]!.accept).length, successes.length),
      latency: { n: latencies.length, mean: mean(latencies), median: median(latencies) },
      accepts_by_scenario: byScenario,
    };
  }
  return { rows: rows.length, failures: failures.length, successes: successes.length, policies };
}

export interface Paired { label: string; pairs: number; only_first_correct: number; only_second_correct: number; p: number }

function paired(label: string, pairs: [SummaryRow, SummaryRow][], first: string, second: string): Paired {
  let b = 0;
  let c = 0;
  for (const [x, y] of pairs) {
    const cx = correct(x, first);
    const cy = correct(y, second);
    if (cx && !cy) b++;
    if (cy && !cx) c++;
  }
  return { label, pairs: pairs.length, only_first_correct: b, only_second_correct: c, p: mcnemarExact(b, c) };
}

/** Within one run: the committed-state policy against each other policy, row by row. */
export function pairedWithinRun(rows: readonly SummaryRow[], reference: PolicyId = 'transport-committed'): Paired[] {
  const pairs = rows.map((r) => [r, r] as [SummaryRow, SummaryRow]);
  return policyIds.filter((id) => id !== reference).map((id) => paired(`${reference} vs ${id}`, pairs, reference, id));
}

/** Across two runs of the same conditions (e.g. Firefox vs Chromium): the same policy, paired by condition_id. */
export function pairedAcrossRuns(first: readonly SummaryRow[], second: readonly SummaryRow[], names: [string, string]): Paired[] {
  const other = new Map(second.map((r) => [r.condition_id, r]));
  const pairs = first.filter((r) => other.has(r.condition_id)).map((r) => [r, other.get(r.condition_id)!] as [SummaryRow, SummaryRow]);
  return policyIds.map((id) => paired(`${id}: ${names[0]} vs ${names[1]}`, pairs, id, id));
}

const pct = (x: number) => (100 * x).toFixed(1);
const ms = (x: number | null) => (x === null ? '–' : `${x.toFixed(1)} ms`);
const fmtRate = (r: Rate) => `${r.k}/${r.n} [${pct(r.interval.low)}–${pct(r.interval.high)}%]`;

export function formatSummary(s: Summary): string {
  const lines = [`${s.rows} rows: ${s.failures} true failures, ${s.successes} true successes`, ''];
  lines.push(`${'policy'.padEnd(22)} ${'false accepts (failures)'.padEnd(26)} ${'false rejects (successes)'.padEnd(26)} latency mean / median (n)`);
  for (const id of policyIds) {
    const p = s.policies[id];
    lines.push(`${id.padEnd(22)} ${fmtRate(p.false_accepts).padEnd(26)} ${fmtRate(p.false_rejects).padEnd(26)} ${ms(p.latency.mean)} / ${ms(p.latency.median)} (${p.latency.n})`);
  }
  const nt = s.policies['network-terminal'].latency;
  const dual = s.policies['transport-committed'].latency;
  lines.push('', `network terminal latency: mean ${ms(nt.mean)}, median ${ms(nt.median)}; dual final (transport + committed state): mean ${ms(dual.mean)}, median ${ms(dual.median)}`);
  const scenarios = Object.keys(s.policies['optimistic-dom'].accepts_by_scenario).sort();
  lines.push('', `accepted / rows, by scenario:`, `${'scenario'.padEnd(20)} ${policyIds.map((id) => id.padEnd(21)).join(' ')}`);
  for (const sc of scenarios) {
    lines.push(`${sc.padEnd(20)} ${policyIds.map((id) => { const c = s.policies[id].accepts_by_scenario[sc]!; return `${c.accepted}/${c.rows}`.padEnd(21); }).join(' ')}`);
  }
  return lines.join('\n');
}

export function formatPaired(title: string, rows: Paired[]): string {
  const lines = [title];
  for (const r of rows) lines.push(`  ${r.label.padEnd(56)} pairs ${r.pairs}, only first correct ${r.only_first_correct}, only second correct ${r.only_second_correct}, exact McNemar p = ${r.p < 1e-4 ? r.p.toExponential(2) : r.p.toFixed(4)}`);
  return lines.join('\n');
}
