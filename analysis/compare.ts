// SQL against the recount: the same rows (matched by their key columns), the same counts exactly,
// the same measures to a relative 1e-9 (DuckDB and JavaScript may sum in different orders).
// Every disagreement is named by table, row and column, so `make reanalyze` can say which cell.
import type { Cell, TableDef, TableRow } from './tables.ts';

const keyOf = (def: TableDef, row: TableRow) => JSON.stringify(def.keys.map((k) => row[k] ?? null));
const describeKey = (def: TableDef, row: TableRow) => def.keys.map((k) => `${k}=${row[k] ?? 'null'}`).join(' ');

function sameMeasure(a: Cell, b: Cell): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a !== 'number' || typeof b !== 'number') return a === b;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

export function compareTable(def: TableDef, sql: TableRow[], recount: TableRow[]): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, TableRow>();
  for (const row of recount) {
    const k = keyOf(def, row);
    if (byKey.has(k)) problems.push(`table ${def.name}: the recount has two rows for ${describeKey(def, row)}`);
    byKey.set(k, row);
  }
  const matched = new Set<string>();
  for (const row of sql) {
    const k = keyOf(def, row);
    const other = byKey.get(k);
    if (matched.has(k)) problems.push(`table ${def.name}: SQL has two rows for ${describeKey(def, row)}`);
    matched.add(k);
    if (!other) {
      problems.push(`table ${def.name}: row ${describeKey(def, row)} is in the SQL result but not in the recount`);
      continue;
    }
    for (const c of def.counts) {
      if ((row[c] ?? null) !== (other[c] ?? null)) problems.push(`table ${def.name}, row ${describeKey(def, row)}, column ${c}: SQL ${row[c]}, recount ${other[c]}`);
    }
    for (const c of def.measures) {
      if (!sameMeasure(row[c] ?? null, other[c] ?? null)) problems.push(`table ${def.name}, row ${describeKey(def, row)}, column ${c}: SQL ${row[c]}, recount ${other[c]}`);
    }
  }
  for (const row of recount) {
    if (!matched.has(keyOf(def, row))) problems.push(`table ${def.name}: row ${describeKey(def, row)} is in the recount but not in the SQL result`);
  }
  return problems;
}
