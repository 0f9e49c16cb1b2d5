// The screen a run prints when it ends: the analysis's own table definitions (tables.ts) computed
// by the recount (recount.ts) on that run's rows alone, so a number on the console and the same
// number in the paper have one definition. A study names the tables its arms show.
import { recount } from './recount.ts';
import { columnsOf, finishRow, tableDef, type TableDef, type TableRow } from './tables.ts';
import type { EvidenceRow, LayersRow, TraceRow } from './rows.ts';
import { layers } from '../core/layers.ts';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

/** brief: a rate without its interval (two rates side by side) */
function cell(def: TableDef, row: TableRow, column: string, brief = false): string {
  const rate = def.rates.find((r) => column === `${r.name}_rate`);
  if (rate) {
    const n = row[rate.n] as number;
    if (!n) return '–';
    const k = `${row[rate.k]}/${n} ${pct(row[column] as number)}`;
    return brief ? k : `${k} [${pct(row[`${rate.name}_low`] as number)}, ${pct(row[`${rate.name}_high`] as number)}]`;
  }
  const v = row[column];
  return v === null || v === undefined ? '–' : String(v);
}

/** The columns a console table shows: keys, counts and measures, each rate once (its k, interval folded in). */
function shownColumns(def: TableDef, hide: string[]): string[] {
  const rateParts = new Set(def.rates.flatMap((r) => [r.k, `${r.name}_low`, `${r.name}_high`]));
  return columnsOf(def).filter((c) => !rateParts.has(c) && !hide.includes(c));
}

function aligned(title: string, columns: string[], body: string[][]): string {
  const widths = columns.map((c, i) => Math.max(c.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [title, line(columns.map((c) => c.replace(/_rate$/, ''))), ...body.map(line)].join('\n');
}

/** One table as aligned text: keys, counts and measures, then each rate as k/n with its Wilson 95% interval. */
export function formatTable(def: TableDef, rows: TableRow[], hide: string[] = []): string {
  const columns = shownColumns(def, hide);
  return aligned(def.title, columns, rows.map((r) => columns.map((c) => cell(def, r, c))));
}

export interface SummaryTable {
  name: string;
  /** columns not worth showing on the console */
  hide?: string[];
  /** keep only these rows (e.g. one arm) */
  where?: (row: TableRow) => boolean;
}

const keyOf = (def: TableDef, r: TableRow) => def.keys.map((k) => String(r[k])).join('\u0000');

/** Rows in the paper's order: key by key, numbers as numbers (horizons 50 < 150 < 1000), layers by their rank. */
function byKeys(def: TableDef) {
  return (a: TableRow, b: TableRow): number => {
    for (const k of def.keys) {
      const [x, y] = [a[k], b[k]];
      const d = typeof x === 'number' && typeof y === 'number' ? x - y
        : k === 'layer' ? layers.indexOf(x as never) - layers.indexOf(y as never)
          : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      if (d !== 0) return d;
    }
    return 0;
  };
}

/** The named tables' rows, computed by the recount on these rows alone, sorted by their keys. */
function summaryRows(rows: readonly TraceRow[], tables: SummaryTable[]): TableRow[][] {
  const located = <R>(rs: R[]) => rs.map((row, i) => ({ row, file: 'run', line: i + 1 }));
  const counted = recount({
    layers: located(rows.filter((r): r is LayersRow => r.study === 'layers')),
    evidence: located(rows.filter((r): r is EvidenceRow => r.study === 'evidence')),
  });
  return tables.map((t) => {
    const def = tableDef(t.name);
    const finished = (counted[t.name] ?? []).map((r) => finishRow(def, r)).filter(t.where ?? (() => true));
    return finished.sort(byKeys(def));
  });
}

/** The run's rows (plus any rows it is compared with) through the named tables. */
export function runSummary(rows: readonly TraceRow[], tables: SummaryTable[]): string {
  const computed = summaryRows(rows, tables);
  return tables
    .map((t, i) => {
      const def = tableDef(t.name);
      return computed[i]!.length ? formatTable(def, computed[i]!, t.hide) : `${def.title}\n(no rows)`;
    })
    .join('\n\n');
}

/** Two runs of one arm through the same tables, row beside row: a cell the runs agree on once, a cell
 *  they differ on as `first → second` (rates without their intervals); `≠` marks a row whose counts differ. */
export function summariesBeside(first: readonly TraceRow[], second: readonly TraceRow[], tables: SummaryTable[]): string {
  const [a, b] = [summaryRows(first, tables), summaryRows(second, tables)];
  return tables
    .map((t, i) => {
      const def = tableDef(t.name);
      const columns = shownColumns(def, t.hide ?? []);
      const inA = new Map(a[i]!.map((r) => [keyOf(def, r), r]));
      const inB = new Map(b[i]!.map((r) => [keyOf(def, r), r]));
      const order = byKeys(def);
      const keys = [...new Set([...inA.keys(), ...inB.keys()])].sort((x, y) => order((inA.get(x) ?? inB.get(x))!, (inA.get(y) ?? inB.get(y))!));
      if (!keys.length) return `${def.title}\n(no rows)`;
      const counted = new Set([...def.counts, ...def.rates.map((r) => `${r.name}_rate`)]);
      const body = keys.map((key) => {
        const [ra, rb] = [inA.get(key), inB.get(key)];
        let differs = !ra || !rb;
        const cells = columns.map((c) => {
          const [ca, cb] = [ra ? cell(def, ra, c) : '(none)', rb ? cell(def, rb, c) : '(none)'];
          if (ca === cb || def.keys.includes(c)) return ca === '(none)' ? cb : ca;
          if (counted.has(c)) differs = true;
          return `${ra ? cell(def, ra, c, true) : '(none)'} → ${rb ? cell(def, rb, c, true) : '(none)'}`;
        });
        return [differs ? '≠' : '', ...cells];
      });
      return aligned(def.title, ['', ...columns], body);
    })
    .join('\n\n');
}
