// The evaluator audit's section (issue 51): analysis/out/evaluator_audit.json as a scorecard, each cell
// recounted and linked to the registered traces it counts. The verdicts come from the traces' kept
// files (the HAR, the store's reads), which only the reanalysis re-scores (analysis/evaluator-audit.ts,
// code the report may not import); it writes what it counted, one row a trace, as
// analysis/out/evaluator_audit_traces.json, and the report recounts the table from that generated file:
//
//   evaluator_audit_traces.json row ──(run file, line)──▶ the registered trace (data/raw): the same
//        │                                                condition, policy and browser, its VTS the row's "stored"
//        ▼ grouped by browser, arm, version, app and fault ('all': every fault), per evaluator
//   evaluator_audit.json row ─▶ cell false accept { k: false_accept_n, n: not_stored_n, hits → traces }
//                               cell false reject { k: false_reject_n, n: stored_n, hits → traces }
//
// The evaluators are those the table names (its column `evaluator`), each read from the trace row's column of
// that name (true: it credits the task; false: it does not; null: it cannot say, and the trace is out of its
// totals). A trace row naming no registered trace, a count or Wilson interval the rows do not give, or a
// group the table lacks is a disagreement: the report is not written (scorecards.ts does the same).
import { wilson } from '../core/stats.ts';
import { RStackError } from '../core/errors.ts';
import type { ReportRecord, Table } from './record.ts';
import type { Cell, ScoreRow, Section, Trace } from './scorecards.ts';

/** The table the section shows and the one it recounts it from (both analysis/out, both in record.ts's reportTables). */
export const auditTable = 'evaluator_audit';
export const auditTracesTable = 'evaluator_audit_traces';

const keyCols = ['browser', 'arm', 'arm_version', 'app', 'fault', 'evaluator'] as const;
const groupCols = ['browser', 'arm', 'arm_version', 'app'] as const;
const measures = [
  { name: 'false_accept', label: 'false accept', k: 'false_accept_n', n: 'not_stored_n', inTotal: (stored: boolean) => !stored, hit: (accept: boolean) => accept },
  { name: 'false_reject', label: 'false reject', k: 'false_reject_n', n: 'stored_n', inTotal: (stored: boolean) => stored, hit: (accept: boolean) => !accept },
];

const close = (a: unknown, b: number) => typeof a === 'number' && Math.abs(a - b) <= 5e-5;
const groupKey = (r: Record<string, unknown>, fault: unknown) => JSON.stringify([...groupCols.map((c) => r[c]), fault]);

/**
 * The section, from record.tables' evaluator_audit and evaluator_audit_traces and the registered traces.
 * listOf turns trace ids into the report's lists (a cell's link to the traces it counts).
 * Throws when the recount disagrees with the table.
 */
export function auditSection(record: ReportRecord, traces: Trace[], listOf: (ids: number[]) => number): Section {
  const table = record.tables.get(auditTable) as Table;
  const perTrace = record.tables.get(auditTracesTable) as Table;
  const mismatches: string[] = [];
  const source = `analysis/out/${auditTracesTable}.json`;

  // each trace row to its registered trace, by run file and line (1-based, as the row names it)
  const registered = new Map(traces.map((t) => [`${record.runs[t.run]!.file}#${t.line + 1}`, t]));
  const matched: { trace: Trace; row: Record<string, any> }[] = [];
  for (const row of perTrace.rows) {
    const where = `${source} (file=${row.file}, line=${row.line})`;
    const trace = registered.get(`${row.file}#${row.line}`);
    if (!trace) { mismatches.push(`${where}: names no registered trace`); continue; }
    const r = trace.row;
    if (r.condition_id !== row.condition_id || r.policy !== row.policy || r.browser?.name !== row.browser) {
      mismatches.push(`${where}: says ${row.condition_id} ${row.policy} (${row.browser}); that line is ${r.condition_id} ${r.policy} (${r.browser?.name})`);
      continue;
    }
    if (r.vts !== row.stored) { mismatches.push(`${where}: stored=${row.stored}, the registered row's VTS is ${r.vts}`); continue; }
    matched.push({ trace, row });
  }

  // the traces of each group and fault, and of each group's every fault together ('all')
  const groups = new Map<string, typeof matched>();
  for (const m of matched) {
    for (const fault of [m.row.fault, 'all']) {
      const k = groupKey(m.row, fault);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(m);
    }
  }

  const rows: ScoreRow[] = [];
  const seen = new Set<string>();
  for (const tableRow of table.rows) {
    const evaluator = String(tableRow.evaluator);
    const key = Object.fromEntries(keyCols.map((c) => [c, tableRow[c] ?? 'null'])) as ScoreRow['key'];
    const where = `analysis/out/${auditTable}.json (${keyCols.map((c) => `${c}=${key[c]}`).join(', ')})`;
    seen.add(JSON.stringify([groupKey(tableRow, tableRow.fault), evaluator]));
    // the traces this evaluator said something on
    const said = (groups.get(groupKey(tableRow, tableRow.fault)) ?? []).filter((m) => typeof m.row[evaluator] === 'boolean');
    if (said.length !== tableRow.n) mismatches.push(`${where} n: the table says ${tableRow.n}, ${source} ${said.length}`);
    const cells: Record<string, Cell> = {};
    for (const m of measures) {
      const all = said.filter((x) => m.inTotal(x.row.stored));
      const hits = all.filter((x) => m.hit(x.row[evaluator]));
      const k = tableRow[m.k] as number;
      const n = tableRow[m.n] as number;
      if (hits.length !== k || all.length !== n) mismatches.push(`${where} ${m.k}/${m.n}: the table says ${k}/${n}, ${source} ${hits.length}/${all.length}`);
      else if (n > 0) {
        const w = wilson(k, n);
        if (!close(tableRow[`${m.name}_low`], w.low) || !close(tableRow[`${m.name}_high`], w.high)) mismatches.push(`${where} ${m.k}/${m.n}: Wilson interval [${tableRow[`${m.name}_low`]}, ${tableRow[`${m.name}_high`]}] is not [${w.low.toFixed(4)}, ${w.high.toFixed(4)}]`);
      }
      cells[m.name] = { k, n, rate: tableRow[`${m.name}_rate`] ?? null, low: tableRow[`${m.name}_low`] ?? null, high: tableRow[`${m.name}_high`] ?? null, hits: listOf(hits.map((x) => x.trace.id)), all: listOf(all.map((x) => x.trace.id)) };
    }
    rows.push({ key, cells });
  }
  // a group in which an evaluator said something on a trace, and the table has no row for it
  const evaluators = [...new Set(table.rows.map((r) => String(r.evaluator)))];
  for (const [k, g] of groups) {
    for (const e of evaluators) {
      if (!seen.has(JSON.stringify([k, e])) && g.some((m) => typeof m.row[e] === 'boolean')) mismatches.push(`analysis/out/${auditTable}.json has no row for ${JSON.parse(k).join(', ')}, ${e} (${source} has traces of it)`);
    }
  }
  if (mismatches.length) {
    throw new RStackError(`the report's recount of ${source} disagrees with analysis/out/${auditTable}.json (${mismatches.length}):\n  ${mismatches.slice(0, 10).join('\n  ')}\nNext: make reanalyze, then make report`, { exitCode: 2 });
  }
  return {
    id: auditTable,
    title: 'Other evaluators against the store, per browser, arm and version, application, fault and evaluator (fault "all" = every fault together)',
    note: `Every registered real-application trace that kept its files beside its row, each evaluator's verdict taken from those files by the reanalysis and recounted here from ${source}, whose every row names its registered trace. ` +
      'A false accept: the evaluator credits the task while the store lacked the target at the boundary (its total: the traces the store denied); a false reject: it does not credit the task the store held (its total: the traces the store held). ' +
      'The store is the reference, so its own row has neither. A trace the evaluator cannot judge (no HAR, no claim, no later read) is outside its totals.',
    source: `analysis/out/${auditTable}.json`,
    keyCols: [...keyCols],
    measures: measures.map(({ name, label }) => ({ name, label })),
    rows,
  };
}
