// What each preregistration promises to report, checked (make verify, step 6): every `promises:` item
// of a prereg's front matter, NAME (a table) or NAME.COLUMN (a quantity), must exist in analysis/out
// and be shown by the paper's source (a {{table NAME}} placeholder that shows the column, or a
// {{value|rate NAME...}} placeholder that reads it). A promise nobody keeps is named with its prereg.
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot, paths } from '../../core/paths.ts';
import { readPreregs } from './prereg.ts';

export interface PromiseCheckOptions { analysisOut?: string; paperSource?: string }

interface Shown { tables: Map<string, Set<string> | 'all'>; cells: Set<string> }

/** What the paper's source shows: tables (with their columns, or all) and single cells NAME.COLUMN. */
export function shownInPaper(source: string): Shown {
  const shown: Shown = { tables: new Map(), cells: new Set() };
  for (const m of source.matchAll(/\{\{\s*(table|value|rate)\s+([^}\s]+)([^}]*)\}\}/g)) {
    const [, kind, first, rest] = m as unknown as [string, string, string, string];
    if (kind === 'table') {
      const columns = /\bcolumns=([^\s}]+)/.exec(rest)?.[1];
      const prior = shown.tables.get(first);
      if (!columns || prior === 'all') { shown.tables.set(first, 'all'); continue; }
      const set = prior ?? new Set<string>();
      for (const c of columns.split(',')) {
        if (c.endsWith('%')) for (const s of ['_rate', '_low', '_high']) set.add(c.slice(0, -1) + s);
        else set.add(c);
      }
      shown.tables.set(first, set);
    } else if (kind === 'value') {
      shown.cells.add(first);
    } else {
      const rate = rest.trim().split(/\s+/)[0];
      if (rate) for (const s of ['_rate', '_low', '_high']) shown.cells.add(`${first}.${rate}${s}`);
    }
  }
  return shown;
}

export function promiseProblems(options: PromiseCheckOptions = {}): string[] {
  const out = options.analysisOut ?? paths.analysisOut();
  const sourceFile = options.paperSource ?? path.join(codeRoot, 'paper', 'paper.html');
  const shown = shownInPaper(fs.existsSync(sourceFile) ? fs.readFileSync(sourceFile, 'utf8') : '');
  const paper = path.relative(codeRoot, sourceFile).split(path.sep).join('/');
  const problems: string[] = [];
  for (const p of readPreregs()) {
    for (const promise of p.promises ?? []) {
      const [table, column] = promise.split('.') as [string, string | undefined];
      const file = path.join(out, `${table}.json`);
      if (!fs.existsSync(file)) {
        problems.push(`${p.file} promises table ${table}, which is not in analysis/out (no ${table}.json)`);
        continue;
      }
      const columns = (JSON.parse(fs.readFileSync(file, 'utf8')) as { columns: string[] }).columns;
      if (column && !columns.includes(column)) {
        problems.push(`${p.file} promises ${promise}, but table ${table} in analysis/out has no column ${column}`);
        continue;
      }
      const inTable = shown.tables.get(table);
      const inPaper = column ? inTable === 'all' || (inTable instanceof Set && inTable.has(column)) || shown.cells.has(promise) : inTable !== undefined;
      if (!inPaper) problems.push(`${p.file} promises ${column ? 'quantity' : 'table'} ${promise}, which ${paper} does not show`);
    }
  }
  return problems;
}
