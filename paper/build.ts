// Builds the paper: paper/paper.html (the source, placeholders only, template.ts) bound to
// analysis/out and figures/out, written to paper/build/paper.html. It reads nothing else: every
// number in the output comes from a table the reanalysis wrote.
//
//   paper/paper.html + paper/explanations.json + paper/source-values.json
//     + analysis/out/*.json + figures/out/*.svg ──▶ paper/build/paper.html
//
// The explanations are our words and may hold placeholders themselves ({{value ...}}): a number in
// a sentence is bound like any other. The source papers enter only as numbers (source-values.json),
// shown beside ours in {{compare GROUP}} tables, never as their sentences.
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot, paths } from '../core/paths.ts';
import { RStackError } from '../core/errors.ts';
import { messages } from '../core/messages.ts';
import { validate } from '../core/validate.ts';
type Cell = string | number | boolean | null;
type TableRow = Record<string, Cell>;
interface CatalogEntry { table: string; rates: { name: string; k: string; n: string }[] }
import { escapeHtml, formatValue, matches, parsePlaceholder, parseWhere, type Placeholder } from './template.ts';

export const paperSource = path.join(codeRoot, 'paper', 'paper.html');
export const explanationsFile = path.join(codeRoot, 'paper', 'explanations.json');
export const sourceValuesFile = path.join(codeRoot, 'paper', 'source-values.json');

export interface SourceValue {
  group: string; paper: string; section: string; figure: string; value: number; format: string;
  ours: { table: string; column: string; where: string };
}
export interface SourceValues { about: string; papers: Record<string, { title: string }>; values: SourceValue[] }

export function readSourceValues(file = sourceValuesFile): SourceValues {
  return validate<SourceValues>('source-values', JSON.parse(fs.readFileSync(file, 'utf8')), { file: path.relative(codeRoot, file) });
}

export interface BuildOptions { source?: string; dataDir?: string; figuresDir?: string; explanations?: Record<string, string>; sourceValues?: SourceValues }
export interface BuiltPaper {
  html: string;
  /** the tables shown, by name, in order, and the heading each was shown under; `empty` says why a table has no rows */
  tables: { name: string; heading: string; rows: number; empty?: string }[];
  figures: string[];
  /** differences shown without their explanation, and other things a reader should know */
  warnings: string[];
  /** the groups of source figures shown beside ours */
  comparisons: string[];
}

interface TableJson { table: string; title: string; query: string; columns: string[]; rows: TableRow[] }

export function buildPaper(options: BuildOptions = {}): BuiltPaper {
  const sourceFile = options.source ?? paperSource;
  const dataDir = options.dataDir ?? paths.analysisOut();
  const figuresDir = options.figuresDir ?? paths.figuresOut();
  const explanations: Record<string, string> = options.explanations ?? JSON.parse(fs.readFileSync(explanationsFile, 'utf8'));
  const source = fs.readFileSync(sourceFile, 'utf8');
  const sourceValues = options.sourceValues ?? readSourceValues();
  const built: BuiltPaper = { html: '', tables: [], figures: [], warnings: [], comparisons: [] };
  const cache = new Map<string, TableJson>();
  let catalog: Map<string, CatalogEntry> | undefined;
  const tableDef = (name: string): CatalogEntry => {
    if (!catalog) {
      const file = path.join(dataDir, 'catalog.json');
      if (!fs.existsSync(file)) throw new RStackError(messages.paperMissingTable('catalog'), { exitCode: 2 });
      catalog = new Map((JSON.parse(fs.readFileSync(file, 'utf8')) as { tables: CatalogEntry[] }).tables.map((t) => [t.table, t]));
    }
    const entry = catalog.get(name);
    if (!entry) throw new Error(`no table ${name} in analysis/out/catalog.json`);
    return entry;
  };

  const load = (name: string): TableJson => {
    let t = cache.get(name);
    if (!t) {
      tableDef(name); // an unknown table is a mistake in the source, not missing data
      const file = path.join(dataDir, `${name}.json`);
      if (!fs.existsSync(file)) throw new RStackError(messages.paperMissingTable(name), { exitCode: 2 });
      t = JSON.parse(fs.readFileSync(file, 'utf8')) as TableJson;
      cache.set(name, t);
    }
    return t;
  };
  const rowsOf = (name: string, where?: string) => {
    const w = parseWhere(where);
    return load(name).rows.filter((r) => matches(r, w));
  };
  const one = (p: Placeholder, name: string): TableRow | undefined => {
    const rows = rowsOf(name, p.options.where);
    if (rows.length > 1) throw new Error(`{{${p.text}}} matches ${rows.length} rows; narrow its where=`);
    return rows[0];
  };
  const noData = '<span class="nodata">[no registered data yet]</span>';

  const render = (p: Placeholder): string => {
    switch (p.kind) {
      case 'table': return renderTable(p);
      case 'value': {
        const [name, column] = (p.args[0] ?? '').split('.');
        if (!name || !column) throw new Error(`{{${p.text}}}: value takes TABLE.COLUMN`);
        const row = one(p, name);
        if (row && !(column in row)) throw new Error(`{{${p.text}}}: table ${name} has no column ${column}`);
        return row ? `<span class="value">${formatValue(row[column], p.options.fmt)}</span>` : noData;
      }
      case 'rate': {
        const [name, rate] = p.args;
        const spec = tableDef(name!).rates.find((r) => r.name === rate);
        if (!spec) throw new Error(`{{${p.text}}}: table ${name} has no rate ${rate}`);
        const row = one(p, name!);
        if (!row || !row[spec.n]) return noData;
        return `<span class="value">${row[spec.k]}/${row[spec.n]} = ${formatValue(row[`${rate}_rate`], 'pct')} (95% CI ${formatValue(row[`${rate}_low`], 'pct')}–${formatValue(row[`${rate}_high`], 'pct')})</span>`;
      }
      case 'pair': {
        const name = p.args[0]!;
        const row = one(p, name);
        if (!row) return noData;
        const [a, b] = Object.keys(row).filter((k) => /_a$/.test(k)).map((k) => [row[k], row[k.replace(/_a$/, '_b')]])[0] ?? ['a', 'b'];
        return `<span class="value">${escapeHtml(String(b))} alone on ${row.b_only_n}, ${escapeHtml(String(a))} alone on ${row.a_only_n} of ${row.pairs} pairs (exact McNemar p ${row.p_mcnemar !== null && (row.p_mcnemar as number) < 0.0001 ? '' : '= '}${formatValue(row.p_mcnemar, 'p')})</span>`;
      }
      case 'figure': return renderFigure(p);
      case 'status': {
        const [study, arm] = p.args;
        const rows = load('data_inventory').rows.filter((r) => r.study === study && r.arm === arm);
        if (!rows.length) return `<span class="nodata">No registered data exists yet for arm <code>${escapeHtml(arm!)}</code> of study <code>${escapeHtml(study!)}</code>.</span>`;
        return rows.map((r) => `${r.rows} rows from ${r.runs} run${r.runs === 1 ? '' : 's'} in ${escapeHtml(String(r.browser))} ${escapeHtml(String(r.browser_versions))}${r.error_rows ? ` (${r.error_rows} with a recorded error)` : ''}`).join('; ') + '.';
      }
      case 'explain': {
        const key = p.args[0]!;
        const table = p.options.table;
        if (!table) throw new Error(`{{${p.text}}}: explain needs table=`);
        if (!rowsOf(table, p.options.where).length) return `<span class="explain nodata">No registered data yet, so there is nothing to compare with the source paper.</span>`;
        const text = explanations[key]?.trim();
        if (!text) {
          built.warnings.push(`paper: the difference "${key}" has data but no explanation yet (paper/explanations.json)`);
          return `<span class="explain missing">Not yet explained: our numbers and the source paper's stand side by side above; the explanation belongs in paper/explanations.json under "${escapeHtml(key)}".</span>`;
        }
        // the explanation's own placeholders are bound like the paper's: escape the words, fill the rest
        const parts = text.split(/(\{\{[^}]*\}\})/);
        const html = parts.map((part) => (/^\{\{[^}]*\}\}$/.test(part) ? render(parsePlaceholder(part.slice(2, -2).trim())) : escapeHtml(part))).join('');
        return `<span class="explain">${html}</span>`;
      }
      case 'compare': return renderComparison(p);
      default: throw new Error(messages.paperUnknownPlaceholder('paper/paper.html', `{{${p.text}}}`));
    }
  };

  const renderTable = (p: Placeholder): string => {
    const name = p.args[0]!;
    const t = load(name);
    const rows = rowsOf(name, p.options.where);
    const heading = p.options.caption ?? t.title;
    const columns = p.options.columns ? p.options.columns.split(',') : t.columns;
    for (const c of columns) {
      const base = c.endsWith('%') ? `${c.slice(0, -1)}_rate` : c;
      if (!t.columns.includes(base)) throw new Error(`{{${p.text}}}: table ${name} has no column ${base}`);
    }
    built.tables.push({ name, heading, rows: rows.length, ...(rows.length ? {} : { empty: whyEmpty(t, p.options.where) }) });
    const id = `table-${name}-${built.tables.filter((x) => x.name === name).length}`;
    const filter = p.options.where ? ` (rows where ${escapeHtml(p.options.where.replaceAll(':', ' = ').replaceAll(',', ', '))})` : '';
    const provenance = `<p class="provenance">Made by <a href="../../${escapeHtml(t.query)}">${escapeHtml(t.query)}</a> from <code>data/raw</code>${filter}; the full table is <code>analysis/out/${escapeHtml(name)}.json</code> (and <code>.csv</code>).</p>`;
    if (!rows.length) return `<section class="table" id="${id}"><h3>${escapeHtml(heading)}</h3>${provenance}<p class="nodata">No registered data yet: the query returns no rows.</p></section>`;
    const head = columns.map((c) => `<th>${escapeHtml(c.endsWith('%') ? `${c.slice(0, -1)} [95% CI]` : c)}</th>`).join('');
    const body = rows.map((r) => `<tr>${columns.map((c) => {
      if (c.endsWith('%')) {
        const b = c.slice(0, -1);
        return `<td class="num">${r[`${b}_rate`] === null ? '–' : `${formatValue(r[`${b}_rate`], 'pct')} [${formatValue(r[`${b}_low`], 'pct')}–${formatValue(r[`${b}_high`], 'pct')}]`}</td>`;
      }
      const v = r[c];
      return `<td${typeof v === 'number' ? ' class="num"' : ''}>${formatValue(v, c === 'p_mcnemar' ? 'p' : 'num')}</td>`;
    }).join('')}</tr>`).join('\n');
    return `<section class="table" id="${id}"><h3>${escapeHtml(heading)}</h3>${provenance}<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
  };

  // the source's figure beside ours and the difference (ours minus theirs), one row per figure
  const renderComparison = (p: Placeholder): string => {
    const group = p.args[0]!;
    const entries = sourceValues.values.filter((v) => v.group === group);
    if (!entries.length) throw new Error(`{{${p.text}}}: paper/source-values.json has no figure in group ${group}`);
    const fmt = (value: number | null, format: string) => (value === null ? '–' : format === 'int' ? String(value) : format === 'num' ? value.toFixed(2) : formatValue(value, format));
    const rows = entries.map((e) => {
      const paper = sourceValues.papers[e.paper];
      if (!paper) throw new Error(`paper/source-values.json: ${e.figure}: no paper ${e.paper}`);
      const t = load(e.ours.table);
      if (!t.columns.includes(e.ours.column)) throw new Error(`paper/source-values.json: ${e.figure}: table ${e.ours.table} has no column ${e.ours.column}`);
      const matched = rowsOf(e.ours.table, e.ours.where);
      if (matched.length > 1) throw new Error(`paper/source-values.json: ${e.figure}: ${e.ours.table} where=${e.ours.where} matches ${matched.length} rows`);
      const cell = matched[0]?.[e.ours.column];
      const ours = typeof cell === 'number' ? cell : null;
      const difference = ours === null ? null : Math.round((ours - e.value) * 1e6) / 1e6;
      const diffText = difference === null ? '–' : e.format === 'pct' ? `${difference >= 0 ? '+' : ''}${(100 * difference).toFixed(1)} points` : `${difference >= 0 ? '+' : ''}${fmt(difference, e.format === 'p' ? 'num' : e.format)}`;
      return `<tr><td>${escapeHtml(e.figure)}</td><td>${escapeHtml(e.section)}</td><td class="num">${fmt(e.value, e.format)}</td><td class="num">${ours === null ? '<span class="nodata">no data</span>' : fmt(ours, e.format)}</td><td class="num">${diffText}</td></tr>`;
    });
    const titles = [...new Set(entries.map((e) => sourceValues.papers[e.paper]!.title))];
    built.comparisons.push(group);
    return `<section class="compare" id="compare-${escapeHtml(group)}"><table><caption>Source: <cite>${titles.map(escapeHtml).join('</cite>; <cite>')}</cite> (figures from <code>paper/source-values.json</code>); ours from <code>analysis/out</code> (${[...new Set(entries.map((e) => e.ours.table))].map((n) => `<code>${escapeHtml(n)}</code>`).join(', ')}).</caption><thead><tr><th>figure</th><th>source section</th><th>source</th><th>ours</th><th>ours − source</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></section>`;
  };

  // why a table shows no rows: its arm has no registered data yet (the inventory says), or its query finds none
  const whyEmpty = (t: TableJson, where?: string): string => {
    const arm = /\(arm ([\w-]+)/.exec(t.title)?.[1];
    const inventory = load('data_inventory').rows;
    if (arm && !inventory.some((r) => r.arm === arm)) {
      const study = t.table.startsWith('layers_') ? 'layers' : t.table.startsWith('evidence_') ? 'evidence' : null;
      return `no registered data of ${study ? `study ${study}, ` : ''}arm ${arm} yet: that arm has not been run`;
    }
    if (!t.rows.length) return 'its query finds no rows in the registered data';
    return `no rows match where=${where}`;
  };

  const renderFigure = (p: Placeholder): string => {
    const name = p.args[0]!;
    const file = path.join(figuresDir, `${name}.svg`);
    if (!fs.existsSync(file)) throw new RStackError(`the paper needs figures/out/${name}.svg: run make figures first`, { exitCode: 2 });
    const spec = JSON.parse(fs.readFileSync(path.join(codeRoot, 'figures', `${name}.vl.json`), 'utf8')) as { description?: string };
    built.figures.push(name);
    const svg = fs.readFileSync(file, 'utf8').replace(/^<\?xml[^>]*>\s*/, '');
    return `<figure id="figure-${name}">${svg}<figcaption>${escapeHtml(spec.description ?? '')} Spec: <code>figures/${escapeHtml(name)}.vl.json</code>.</figcaption></figure>`;
  };

  // conditional blocks first (not nested), then every inline placeholder
  let html = source.replace(/\{\{#if-data ([^}]*)\}\}([\s\S]*?)(?:\{\{else\}\}([\s\S]*?))?\{\{\/if-data\}\}/g, (_, head: string, yes: string, no: string | undefined) => {
    const p = parsePlaceholder(`if-data ${head}`);
    return rowsOf(p.args[0]!, p.options.where).length ? yes : (no ?? '');
  });
  html = html.replace(/\{\{([^#/][^}]*)\}\}/g, (_, text: string) => {
    try {
      return render(parsePlaceholder(text.trim()));
    } catch (error) {
      if (error instanceof RStackError) throw error;
      throw new RStackError(`paper/paper.html: ${(error as Error).message}`, { exitCode: 2, cause: error });
    }
  });
  built.html = html;
  return built;
}

export function writePaperHtml(built: BuiltPaper, dir = paths.paperBuild()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'paper.html');
  fs.writeFileSync(file, built.html);
  return file;
}
