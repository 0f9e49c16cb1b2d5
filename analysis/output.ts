// The files the reanalysis writes, byte for byte the same on every rerun: columns in a fixed order,
// numbers already rounded (tables.ts), no timestamps, no machine-specific paths, LF line ends.
import type { TableDef, TableRow, Cell } from './tables.ts';
import { columnsOf } from './tables.ts';

export interface TableFile {
  table: string;
  title: string;
  query: string;
  columns: string[];
  rows: TableRow[];
}

export function tableFile(def: TableDef, rows: TableRow[]): TableFile {
  return { table: def.name, title: def.title, query: def.query, columns: columnsOf(def), rows };
}

/** analysis/out/catalog.json: what each table is — its title, query, keys, and how its rates and
 *  McNemar test are formed — so that the paper reads only generated files, never analysis/ code. */
export function toCatalog(defs: readonly TableDef[]): string {
  const entries = defs.map((d) => '    ' + JSON.stringify({ table: d.name, title: d.title, query: d.query, keys: d.keys, rates: d.rates, mcnemar: d.mcnemar ?? null }));
  return `{\n  "tables": [\n${entries.join(',\n')}\n  ]\n}\n`;
}

/** Pretty at the top, one line per row: readable in a diff, and the same bytes every time. */
export function toJson(file: TableFile): string {
  const rows = file.rows.map((r) => '    ' + JSON.stringify(Object.fromEntries(file.columns.map((c) => [c, r[c] ?? null]))));
  return [
    '{',
    `  "table": ${JSON.stringify(file.table)},`,
    `  "title": ${JSON.stringify(file.title)},`,
    `  "query": ${JSON.stringify(file.query)},`,
    `  "columns": ${JSON.stringify(file.columns)},`,
    rows.length ? `  "rows": [\n${rows.join(',\n')}\n  ]` : '  "rows": []',
    '}',
    '',
  ].join('\n');
}

function csvCell(value: Cell): string {
  if (value === null) return '';
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function toCsv(file: TableFile): string {
  const lines = [file.columns.join(',')];
  for (const row of file.rows) lines.push(file.columns.map((c) => csvCell(row[c] ?? null)).join(','));
  return lines.join('\n') + '\n';
}
