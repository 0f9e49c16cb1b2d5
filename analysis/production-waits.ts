// Arm B's descriptive latencies, as prereg/evidence-arm-b.md registered them ("the median
// domcontentloaded latency; the title-settlement and body-stability waits"): per browser, the median
// of each over the trials where it was observed, computed from the recorded timeline with the very
// definitions the runner used (core/evidence/production.ts). Until now they were printed only on the
// console at the end of the run; this table keeps them in analysis/out, with how often the two
// exploratory rules (title-settled, body-stable) accepted a semantic HTTP-200 negative.
//
//   evidence rows of arm-b ─▶ domcontentloaded t_ms, titleSettlement().wait_ms, bodyStability().wait_ms ─▶ medians
import { bodyStability, bodyStable, titleSettled, titleSettlement, type TimelineEvent } from '../core/evidence/production.ts';
import { median } from './stats.ts';
import type { EvidenceRow, Located } from './rows.ts';
import type { TableRow } from './tables.ts';

export function productionWaits(rows: Located<EvidenceRow>[]): TableRow[] {
  const byBrowser = new Map<string, EvidenceRow[]>();
  for (const { row } of rows) {
    if (row.arm !== 'arm-b') continue;
    const list = byBrowser.get(row.browser.name) ?? [];
    list.push(row);
    byBrowser.set(row.browser.name, list);
  }
  return [...byBrowser.keys()].sort().map((browser) => {
    const trials = byBrowser.get(browser)!;
    const events = trials.map((r) => r.events as unknown as readonly TimelineEvent[]);
    const dcl = events.flatMap((e) => e.filter((x) => x.source === 'dom' && x.type === 'domcontentloaded').slice(0, 1).map((x) => x.t_ms));
    const title = events.flatMap((e) => { const s = titleSettlement(e); return s ? [s.wait_ms] : []; });
    const body = events.flatMap((e) => { const s = bodyStability(e); return s ? [s.wait_ms] : []; });
    // the exploratory rules on the semantic HTTP-200 negatives (a page that answers 200 but is not the goal)
    const negatives = trials.filter((r) => r.scenario === 'semantic-negative').map((r) => r.events as unknown as readonly TimelineEvent[]);
    return {
      browser,
      trials: trials.length,
      domcontentloaded_n: dcl.length,
      title_settled_n: title.length,
      body_stable_n: body.length,
      semantic_negative_n: negatives.length,
      title_settled_semantic_accept_n: negatives.filter((e) => titleSettled(e).accept).length,
      body_stable_semantic_accept_n: negatives.filter((e) => bodyStable(e).accept).length,
      median_domcontentloaded_ms: median(dcl),
      median_title_settlement_wait_ms: median(title),
      median_body_stability_wait_ms: median(body),
    };
  });
}
