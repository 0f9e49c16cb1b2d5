// The scorecards: every row of the analysis tables the report shows (analysis/out), each rate with
// the traces it counts. The numbers shown are analysis/out's; the report recounts each one from
// the registered rows (the same rows, grouped the same way) and refuses to write a scorecard whose
// recount disagrees, so that every cell's link leads to exactly the traces behind its number.
//
//   analysis/out/<table>.json row ─┐
//                                  ├─▶ cell { k, n, rate, low, high, hits → traces, all → traces }
//   data/raw rows, grouped by key ─┘        (k, n recounted; Wilson interval recomputed: core/stats.ts)
import { wilson } from '../core/stats.ts';
import { RStackError } from '../core/errors.ts';
import type { ReportRecord, Row, Table } from './record.ts';

/** A registered trace row with its place in the report (its global index). */
export interface Trace { id: number; run: number; line: number; row: Row }

type Key = Record<string, string | number>;

interface Measure {
  name: string;
  label: string;
  /** analysis/out's columns of the count and the total (the rate, low and high are <name>_rate, _low, _high) */
  k: string;
  n: string;
  /** the row counts in the measure's total (default: every row of the group) */
  inTotal?: (r: Row, key: Key) => boolean;
  hit: (r: Row, key: Key) => boolean;
}

interface SectionDef {
  table: string;
  title: string;
  note: string;
  keyCols: string[];
  select: (r: Row) => boolean;
  /** the groups a row counts in (a grouping set gives more than one) */
  keys: (r: Row) => Key[];
  measures: Measure[];
}

export interface Cell { k: number; n: number; rate: number | null; low: number | null; high: number | null; hits: number; all: number }
export interface ScoreRow { key: Key; cells: Record<string, Cell>; extra?: Record<string, unknown> }
export interface Section { id: string; title: string; note: string; source: string; keyCols: string[]; measures: { name: string; label: string }[]; rows: ScoreRow[] }
export interface Scorecards { sections: Section[]; lists: number[][] }

const as: Measure = { name: 'as', label: 'AS', k: 'as_n', n: 'n', hit: (r) => r.apparent_success === true };
const vts: Measure = { name: 'vts', label: 'VTS', k: 'vts_n', n: 'n', hit: (r) => r.vts === true };
const fc: Measure = { name: 'fc', label: 'FC', k: 'fc_n', n: 'n', hit: (r) => r.false_completion === true };
const claimed: Measure = { name: 'claimed', label: 'claimed done', k: 'claimed_n', n: 'n', hit: (r) => r.claim?.done === true };
const claimFc: Measure = { name: 'claim_fc', label: 'FC (claim)', k: 'claim_fc_n', n: 'n', hit: (r) => r.claim_false_completion === true };
const fa: Measure = { name: 'fa', label: 'FA', k: 'fa_n', n: 'n', hit: (r) => r.false_abandonment === true };

const layers = (arm: string) => (r: Row) => r.study === 'layers' && r.arm === arm;
/** A transport row's condition as analysis/queries/layers_transport.sql names it. */
const transportCondition = (r: Row) => (!r.transport && !r.also ? `control ${r.layer}` : r.also ? `${r.layer}+${r.also.layer}` : r.layer !== 'baseline' ? `${r.layer}+${r.transport.fault}` : r.transport.fault);
// the study's record: every controlled and Arm A row, and Arm B's registered sample only (the
// rule of analysis/queries/load_evidence.sql, in_record: the exploratory contracts arm is never in it;
// a drift shows as a recount mismatch)
const inEvidenceRecord = (r: Row) => r.study === 'evidence' && ((r.arm !== 'arm-b' && r.arm !== 'arm-b-contracts') || (r.arm === 'arm-b' && String(r.condition_id).split('/')[0] === 'wordpress-local'));
const perPolicy = (r: Row, base: (p: string) => Key): Key[] => Object.keys(r.verdicts ?? {}).map(base);

export const sectionDefs: SectionDef[] = [
  {
    table: 'layers_overall', title: 'Reference policies, all layers and templates (arm main)', note: 'A reference policy makes no separate claim: its done is what its page showed, Apparent Success.',
    keyCols: ['browser', 'policy'], select: layers('main'), keys: (r) => [{ browser: r.browser.name, policy: r.policy }], measures: [as, vts, fc],
  },
  {
    table: 'layers_by_template', title: 'Reference policies per template (arm main)', note: '',
    keyCols: ['browser', 'template', 'policy'], select: layers('main'), keys: (r) => [{ browser: r.browser.name, template: r.template, policy: r.policy }], measures: [as, vts, fc],
  },
  {
    table: 'layers_by_layer', title: 'Reference policies per fault layer and template (arm main; template "all" = the three together)', note: '',
    keyCols: ['browser', 'template', 'policy', 'layer'], select: layers('main'),
    keys: (r) => [{ browser: r.browser.name, template: r.template, policy: r.policy, layer: r.layer }, { browser: r.browser.name, template: 'all', policy: r.policy, layer: r.layer }],
    measures: [as, vts, fc],
  },
  {
    table: 'layers_horizon', title: 'Scoring-horizon ablation: VTS per horizon (arm horizon)', note: '',
    keyCols: ['browser', 'layer', 'horizon_ms'], select: layers('horizon'), keys: (r) => [{ browser: r.browser.name, layer: r.layer, horizon_ms: r.horizon_ms }],
    measures: [vts],
  },
  {
    table: 'layers_claims', title: 'Reference policies with their claims kept, per fault layer (arm claims: the main arm\'s conditions; layer "all" = every layer)',
    note: 'FC is the page\'s, as in arm main (the success showed, the store lacks the state); FC (claim): the policy said done and the store lacks it; FA: it did not say done and the store has it.',
    keyCols: ['browser', 'policy', 'layer'], select: layers('claims'),
    keys: (r) => [{ browser: r.browser.name, policy: r.policy, layer: r.layer }, { browser: r.browser.name, policy: r.policy, layer: 'all' }],
    measures: [as, vts, fc, claimed, claimFc, fa],
  },
  {
    table: 'agent_by_layer', title: 'Outside agents per fault layer (arm agent; layer "all" = every layer)', note: 'False completion of an agent: it claimed done and the server did not persist the target.',
    keyCols: ['browser', 'agent', 'agent_sha256', 'layer'], select: (r) => layers('agent')(r) && r.app === undefined,
    keys: (r) => [{ browser: r.browser.name, agent: r.agent?.name, agent_sha256: r.agent?.sha256 ?? 'null', layer: r.layer }, { browser: r.browser.name, agent: r.agent?.name, agent_sha256: r.agent?.sha256 ?? 'null', layer: 'all' }],
    measures: [claimed, as, vts, fc],
  },
  {
    table: 'agent_real_apps', title: 'Outside agents on the real applications per application and fault layer (arm agent on the real-applications conditions; app "all" = both, layer "all" = every layer)',
    note: 'The agent contract on WordPress and MediaWiki behind the fault proxy; VTS read from the application\'s database at the scoring boundary.',
    keyCols: ['browser', 'agent', 'agent_sha256', 'app', 'layer'], select: (r) => layers('agent')(r) && r.app !== undefined,
    keys: (r) => {
      const base = { browser: r.browser.name, agent: r.agent?.name, agent_sha256: r.agent?.sha256 ?? 'null' };
      return [{ ...base, app: r.app, layer: r.layer }, { ...base, app: r.app, layer: 'all' }, { ...base, app: 'all', layer: r.layer }, { ...base, app: 'all', layer: 'all' }];
    },
    measures: [claimed, as, vts, fc],
  },
  {
    table: 'layers_pilot', title: 'Planning pilot per model, prompt and fault layer (arm pilot; layer "all" = every layer)', note: 'Each model is its own run; no figure pools models (prereg/layers-pilot-amendment-1.md).',
    keyCols: ['browser', 'model', 'prompt', 'layer'], select: layers('pilot'),
    keys: (r) => [{ browser: r.browser.name, model: r.model ?? 'null', prompt: r.prompt, layer: r.layer }, { browser: r.browser.name, model: r.model ?? 'null', prompt: r.prompt, layer: 'all' }],
    measures: [as, vts, fc],
  },
  {
    table: 'layers_real_apps', title: 'Real applications per application, task family, reference policy and fault layer (arm real-apps version 1; family "all" = every family the fault proxy faulted, layer "all" = every layer)',
    note: "WordPress and MediaWiki behind the fault proxy, VTS read from each application's database at the scoring boundary. An application's own Verification case (fault source app) stands under its own family only.",
    keyCols: ['browser', 'app', 'family', 'policy', 'layer'], select: (r) => layers('real-apps')(r) && r.arm_version === undefined,
    keys: (r) => {
      const base = { browser: r.browser.name, app: r.app ?? 'null', policy: r.policy };
      const own = [{ ...base, family: r.template, layer: r.layer }, { ...base, family: r.template, layer: 'all' }];
      return r.fault_source === 'app' ? own : [...own, { ...base, family: 'all', layer: r.layer }, { ...base, family: 'all', layer: 'all' }];
    },
    measures: [as, vts, fc],
  },
  {
    table: 'layers_real_apps_v2', title: 'Real applications per application, task family, reference policy and fault layer (arm real-apps version 2: the seed\'s Verification, the policies\' claims; family "all" = every family the fault proxy faulted, layer "all" = every layer)',
    note: "WordPress and MediaWiki behind the fault proxy, VTS read from each application's database at the scoring boundary. An application's own Verification case (fault source app) stands under its own family only. FC is the page's (the notice showed, the store lacks the state); FC (claim): the policy said done and the store lacks it; FA: it said not done and the store has it.",
    keyCols: ['browser', 'app', 'family', 'policy', 'layer'], select: (r) => layers('real-apps')(r) && (r.arm_version ?? 0) >= 2,
    keys: (r) => {
      const base = { browser: r.browser.name, app: r.app ?? 'null', policy: r.policy };
      const own = [{ ...base, family: r.template, layer: r.layer }, { ...base, family: r.template, layer: 'all' }];
      return r.fault_source === 'app' ? own : [...own, { ...base, family: 'all', layer: r.layer }, { ...base, family: 'all', layer: 'all' }];
    },
    measures: [as, vts, fc, claimed, claimFc, fa],
  },
  {
    table: 'layers_transport', title: 'Transport faults and compound conditions per kind of application, condition, transport severity and policy (arm transport version 1; condition "control …" = the same condition without its transport fault)',
    note: 'FA, false abandonment: the store held the postcondition and the policy ended taking the task as not done. Twice: the store itself counted more than one write to the target.',
    keyCols: ['browser', 'apps', 'condition', 'severity', 'policy'], select: (r) => layers('transport')(r) && r.arm_version === undefined,
    keys: (r) => [{ browser: r.browser.name, apps: r.app === undefined ? 'small' : 'real', condition: transportCondition(r), severity: r.transport?.severity ?? 0, policy: r.policy }],
    measures: [as, vts, fc,
      { name: 'fa', label: 'FA', k: 'fa_n', n: 'n', hit: (r) => r.false_abandonment === true },
      { name: 'twice', label: 'twice', k: 'twice_n', n: 'n', hit: (r) => typeof r.store_writes === 'number' && r.store_writes > 1 }],
  },
  {
    table: 'layers_transport_v2', title: 'Transport faults and compound conditions per kind of application, condition, transport severity and policy (arm transport version 2: every policy\'s claim, each trace\'s files; condition "control …" = the same condition without its transport fault)',
    note: 'FC is the page\'s (the success showed, the store lacks the state); FC (claim): the policy said done and the store lacks it. FA, false abandonment: the store held the postcondition and the policy ended taking the task as not done. Twice: the store itself counted more than one write to the target.',
    keyCols: ['browser', 'apps', 'condition', 'severity', 'policy'], select: (r) => layers('transport')(r) && (r.arm_version ?? 0) >= 2,
    keys: (r) => [{ browser: r.browser.name, apps: r.app === undefined ? 'small' : 'real', condition: transportCondition(r), severity: r.transport?.severity ?? 0, policy: r.policy }],
    measures: [as, vts, fc, claimed, claimFc,
      { name: 'fa', label: 'FA', k: 'fa_n', n: 'n', hit: (r) => r.false_abandonment === true },
      { name: 'twice', label: 'twice', k: 'twice_n', n: 'n', hit: (r) => typeof r.store_writes === 'number' && r.store_writes > 1 }],
  },
  {
    table: 'evidence_confusion', title: 'Evidence policies: false accepts (a false completion: accepted, truth failure) and false rejects', note: 'Arm B: the registered sample (wordpress-local) only, as in the analysis.',
    keyCols: ['arm', 'browser', 'policy'], select: inEvidenceRecord, keys: (r) => perPolicy(r, (policy) => ({ arm: r.arm, browser: r.browser.name, policy })),
    measures: [
      { name: 'false_accept', label: 'false accept', k: 'false_accept_n', n: 'failures', inTotal: (r) => r.truth === 'failure', hit: (r, key) => r.truth === 'failure' && r.verdicts[key.policy!]?.accept === true },
      { name: 'false_reject', label: 'false reject', k: 'false_reject_n', n: 'successes', inTotal: (r) => r.truth === 'success', hit: (r, key) => r.truth === 'success' && r.verdicts[key.policy!]?.accept === false },
    ],
  },
  {
    table: 'evidence_by_scenario', title: 'Evidence policies per scenario and truth: accepts', note: 'An accept where truth is failure is a false completion.',
    keyCols: ['arm', 'browser', 'scenario', 'truth', 'policy'], select: inEvidenceRecord, keys: (r) => perPolicy(r, (policy) => ({ arm: r.arm, browser: r.browser.name, scenario: r.scenario, truth: r.truth, policy })),
    measures: [{ name: 'accept', label: 'accept', k: 'accept_n', n: 'n', hit: (r, key) => r.verdicts[key.policy!]?.accept === true }],
  },
];

const keyString = (cols: string[], key: Key) => cols.map((c) => String(key[c])).join('\u0000');
const close = (a: unknown, b: number) => typeof a === 'number' && Math.abs(a - b) <= 5e-5;

/** Builds every section from analysis/out and the registered traces; throws when a recount disagrees. */
export function buildScorecards(record: ReportRecord, traces: Trace[]): Scorecards {
  const lists: number[][] = [];
  const listIds = new Map<string, number>();
  const listOf = (ids: number[]) => {
    const s = ids.join(',');
    let id = listIds.get(s);
    if (id === undefined) listIds.set(s, (id = lists.push(ids) - 1));
    return id;
  };
  const sections: Section[] = [];
  const mismatches: string[] = [];
  for (const def of sectionDefs) {
    const table = record.tables.get(def.table);
    // a section's table the record did not read: report-src/record.ts's reportTables lacks it
    if (!table) throw new RStackError(`the report has a scorecard of ${def.table} but did not read analysis/out/${def.table}.json: add it to reportTables in report-src/record.ts`, { exitCode: 2 });
    const groups = new Map<string, { key: Key; traces: Trace[] }>();
    for (const t of traces) {
      if (!def.select(t.row)) continue;
      for (const key of def.keys(t.row)) {
        const s = keyString(def.keyCols, key);
        let g = groups.get(s);
        if (!g) groups.set(s, (g = { key, traces: [] }));
        g.traces.push(t);
      }
    }
    const rows: ScoreRow[] = [];
    const seen = new Set<string>();
    for (const tableRow of table.rows) {
      const key = Object.fromEntries(def.keyCols.map((c) => [c, tableRow[c] ?? 'null'])) as Key;
      const s = keyString(def.keyCols, key);
      seen.add(s);
      const group = groups.get(s)?.traces ?? [];
      const cells: Record<string, Cell> = {};
      for (const m of def.measures) {
        const all = group.filter((t) => (m.inTotal ? m.inTotal(t.row, key) : true));
        const hits = all.filter((t) => m.hit(t.row, key));
        const k = tableRow[m.k] as number;
        const n = tableRow[m.n] as number;
        const where = `analysis/out/${def.table}.json (${def.keyCols.map((c) => `${c}=${key[c]}`).join(', ')}) ${m.k}/${m.n}`;
        if (hits.length !== k || all.length !== n) mismatches.push(`${where}: the table says ${k}/${n}, the registered rows ${hits.length}/${all.length}`);
        else if (n > 0) {
          const w = wilson(k, n);
          if (!close(tableRow[`${m.name}_low`], w.low) || !close(tableRow[`${m.name}_high`], w.high)) mismatches.push(`${where}: Wilson interval [${tableRow[`${m.name}_low`]}, ${tableRow[`${m.name}_high`]}] is not [${w.low.toFixed(4)}, ${w.high.toFixed(4)}]`);
        }
        cells[m.name] = { k, n, rate: tableRow[`${m.name}_rate`] ?? null, low: tableRow[`${m.name}_low`] ?? null, high: tableRow[`${m.name}_high`] ?? null, hits: listOf(hits.map((t) => t.id)), all: listOf(all.map((t) => t.id)) };
      }
      rows.push({ key, cells });
    }
    for (const [s, g] of groups) if (!seen.has(s)) mismatches.push(`analysis/out/${def.table}.json has no row for ${def.keyCols.map((c) => `${c}=${g.key[c]}`).join(', ')} (${g.traces.length} registered rows)`);
    sections.push({ id: def.table, title: def.title, note: def.note, source: `analysis/out/${def.table}.json`, keyCols: def.keyCols, measures: def.measures.map(({ name, label }) => ({ name, label })), rows });
  }
  if (mismatches.length) {
    throw new RStackError(`the report's recount of the registered rows disagrees with analysis/out (${mismatches.length}):\n  ${mismatches.slice(0, 10).join('\n  ')}\nNext: make reanalyze, then make report`, { exitCode: 2 });
  }
  return { sections, lists };
}
