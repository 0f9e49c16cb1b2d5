// The screen a run prints when it ends: the analysis's own table definitions (tables.ts) computed
// by the recount (recount.ts) on that run's rows alone, so a number on the console and the same
// number in the paper have one definition. A study names the tables its arms show.
import { recount } from './recount.ts';
import { columnsOf, finishRow, tableDef, type TableDef, type TableRow } from './tables.ts';
import type { EvidenceRow, LayersRow, TraceRow } from './rows.ts';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

function cell(def: TableDef, row: TableRow, column: string): string {
  const rate = def.rates.find((r) => column === `${r.name}_rate`);
  if (rate) {
    const n = row[rate.n] as number;
    return n ? `${row[rate.k]}/${n} ${pct(row[column] as number)} [${pct(row[`${rate.name}_low`] as number)}, ${pct(row[`${rate.name}_high`] as number)}]` : '–';
  }
  const v = row[column];
  return v === null || v === undefined ? '–' : String(v);
}

/** One table as aligned text: keys, counts and measures, then each rate as k/n with its Wilson 95% interval. */
export function formatTable(def: TableDef, rows: TableRow[], hide: string[] = []): string {
  const rateParts = new Set(def.rates.flatMap((r) => [r.k, `${r.name}_low`, `${r.name}_high`]));
  const columns = columnsOf(def).filter((c) => !rateParts.has(c) && !hide.includes(c));
  const body = rows.map((r) => columns.map((c) => cell(def, r, c)));
  const widths = columns.map((c, i) => Math.max(c.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [`${def.title}`, line(columns.map((c) => c.replace(/_rate$/, ''))), ...body.map(line)].join('\n');
}

export interface SummaryTable {
  name: string;
  /** columns not worth showing on the console */
  hide?: string[];
  /** keep only these rows (e.g. one arm) */
  where?: (row: TableRow) => boolean;
}

/** The run's rows (plus any rows it is compared with) through the named tables. */
export function runSummary(rows: readonly TraceRow[], tables: SummaryTable[]): string {
  const located = <R>(rs: R[]) => rs.map((row, i) => ({ row, file: 'run', line: i + 1 }));
  const counted = recount({
    layers: located(rows.filter((r): r is LayersRow => r.study === 'layers')),
    evidence: located(rows.filter((r): r is EvidenceRow => r.study === 'evidence')),
  });
  return tables
    .map((t) => {
      const def = tableDef(t.name);
      const keyOf = (r: TableRow) => def.keys.map((k) => String(r[k])).join('\u0000');
      const finished = (counted[t.name] ?? []).map((r) => finishRow(def, r)).filter(t.where ?? (() => true));
      finished.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      return finished.length ? formatTable(def, finished, t.hide) : `${def.title}\n(no rows)`;
    })
    .join('\n\n');
}
