// The summary of Arm B rows: for each policy, what it accepted against the frozen truth (Wilson
// intervals), the instrumentation checks, and the latency medians. Pure: the runner prints it
// on exit and the reanalysis can rebuild it from the raw rows alone, since every policy is
// recomputed from `events` (the verdicts stored in the rows are compared, not trusted).
import { median, wilson, formatRate, type Interval } from '../stats.ts';
import {
  bodyStability,
  instrumentationChecks,
  productionPolicies,
  titleSettlement,
  type ProductionPolicyName,
  type TimelineEvent,
  type Verdict,
} from './production.ts';

export interface ArmBRow {
  case_id?: string;
  scenario: string;
  truth: 'success' | 'failure';
  events: TimelineEvent[];
  verdicts: Record<string, Verdict>;
}

export interface Rate { k: number; n: number; interval: Interval }
const rate = (k: number, n: number): Rate => ({ k, n, interval: wilson(k, n) });

export interface PolicySummary {
  policy: string;
  registered: boolean;
  /** accepted among truth = success (true acceptances) */
  acceptedSuccess: Rate;
  /** accepted among truth = failure (false positives) */
  acceptedFailure: Rate;
  /** accepted, per scenario (the case's kind) */
  byScenario: Record<string, Rate>;
  /** rows whose stored verdict differs from the one recomputed from events (should be 0) */
  storedDisagreements: number;
}

export interface ArmBSummary {
  rows: number;
  policies: PolicySummary[];
  checks: Record<string, { failed: number; of: number }>;
  medians: { domcontentloaded_ms: number | null; title_settlement_wait_ms: number | null; body_stability_wait_ms: number | null };
}

export function summarize(rows: readonly ArmBRow[], registered: readonly string[]): ArmBSummary {
  const names = Object.keys(productionPolicies) as ProductionPolicyName[];
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  // every policy, registered or not: unregistered ones are exploratory, recomputed from events
  const policies = names.map((policy): PolicySummary => {
      const recomputed = rows.map((r) => productionPolicies[policy](r.events));
      const accepted = (pred: (r: ArmBRow) => boolean) => {
        const idx = rows.map((r, i) => [r, i] as const).filter(([r]) => pred(r));
        return rate(idx.filter(([, i]) => recomputed[i]!.accept).length, idx.length);
      };
      return {
        policy,
        registered: registered.includes(policy),
        acceptedSuccess: accepted((r) => r.truth === 'success'),
        acceptedFailure: accepted((r) => r.truth === 'failure'),
        byScenario: Object.fromEntries(scenarios.map((s) => [s, accepted((r) => r.scenario === s)])),
        storedDisagreements: rows.filter((r, i) => r.verdicts[policy] && r.verdicts[policy]!.accept !== recomputed[i]!.accept).length,
      };
    });
  const checks: ArmBSummary['checks'] = {};
  for (const r of rows) {
    for (const c of instrumentationChecks(r.events)) {
      const entry = (checks[c.name] ??= { failed: 0, of: 0 });
      entry.of++;
      if (!c.ok) entry.failed++;
    }
  }
  const dcl = rows.map((r) => r.events.find((e) => e.source === 'dom' && e.type === 'domcontentloaded')?.t_ms).filter((v): v is number => v !== undefined);
  const titleWaits = rows.map((r) => titleSettlement(r.events)?.wait_ms).filter((v): v is number => v !== undefined);
  const bodyWaits = rows.map((r) => bodyStability(r.events)?.wait_ms).filter((v): v is number => v !== undefined);
  return {
    rows: rows.length,
    policies,
    checks,
    medians: { domcontentloaded_ms: median(dcl), title_settlement_wait_ms: median(titleWaits), body_stability_wait_ms: median(bodyWaits) },
  };
}

const ms = (v: number | null) => (v === null ? '–' : `${v.toFixed(1)} ms`);

/** The summary as the runner prints it. */
export function formatSummary(s: ArmBSummary): string {
  const lines = [`${s.rows} trials`, '', 'policy                 accepted | truth success      accepted | truth failure (false positives)   per scenario'];
  const sorted = [...s.policies].sort((a, b) => Number(b.registered) - Number(a.registered));
  for (const p of sorted) {
    const per = Object.entries(p.byScenario).map(([k, r]) => `${k} ${r.k}/${r.n}`).join(', ');
    const tag = p.registered ? '' : '  (exploratory: not registered in this protocol)';
    lines.push(`${p.policy.padEnd(22)} ${formatRate(p.acceptedSuccess.k, p.acceptedSuccess.n).padEnd(26)} ${formatRate(p.acceptedFailure.k, p.acceptedFailure.n).padEnd(42)} ${per}${tag}`);
    if (p.storedDisagreements) lines.push(`  ! ${p.storedDisagreements} stored verdicts differ from the ones recomputed from events`);
  }
  lines.push('', 'instrumentation checks (failed / applicable trials):');
  for (const [name, c] of Object.entries(s.checks)) lines.push(`  ${name.padEnd(30)} ${c.failed}/${c.of}`);
  lines.push(
    '',
    `median domcontentloaded        ${ms(s.medians.domcontentloaded_ms)}`,
    `median title-settlement wait   ${ms(s.medians.title_settlement_wait_ms)}   (from domcontentloaded)`,
    `median body-stability wait     ${ms(s.medians.body_stability_wait_ms)}   (from title settlement)`,
  );
  return lines.join('\n');
}
