// Arm B's exploratory rules on the semantic HTTP-200 negatives: per browser, how often title
// settlement (v1.1) and body stability (v1.2) — computed, not registered, under v1 — would have
// accepted a page that answers 200 but is not the goal. Computed with the runner's own definitions
// (core/evidence/production.ts). The settlement waits themselves are evidence_production_waits.
import { bodyStable, titleSettled, type TimelineEvent } from '../core/evidence/production.ts';
import type { EvidenceRow, Located } from './rows.ts';
import type { TableRow } from './tables.ts';

export function productionExploratory(rows: Located<EvidenceRow>[]): TableRow[] {
  // per sample (the manifest id, the first part of the condition id) and browser
  const groups = new Map<string, EvidenceRow[]>();
  for (const { row } of rows) {
    if (row.arm !== 'arm-b') continue;
    const key = JSON.stringify([row.condition_id.split('/')[0], row.browser.name]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.keys()].sort().map((key) => {
    const [sample, browser] = JSON.parse(key) as [string, string];
    const trials = groups.get(key)!;
    // the exploratory rules on the semantic HTTP-200 negatives (a page that answers 200 but is not the goal)
    const negatives = trials.filter((r) => r.scenario === 'semantic-negative').map((r) => r.events as unknown as readonly TimelineEvent[]);
    return {
      sample,
      browser,
      trials: trials.length,
      semantic_negative_n: negatives.length,
      title_settled_semantic_accept_n: negatives.filter((e) => titleSettled(e).accept).length,
      body_stable_semantic_accept_n: negatives.filter((e) => bodyStable(e).accept).length,
    };
  });
}
