// The scorecards' charts: the project's own Vega-Lite specs (figures/*.vl.json), bound to the same
// analysis/out rows the paper draws, with one channel added, `href`, so that every bar or cell
// links to the traces it counts. Rendered to SVG here (figures/render.ts), inlined by the page:
// the report needs no Vega at view time, and the links work from file://.
import fs from 'node:fs';
import path from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { specsDir, svgOf, useFigureFont, font } from '../figures/render.ts';
import type { Scorecards } from './scorecards.ts';
import type { ReportRecord } from './record.ts';

export interface Chart { id: string; section: string; title: string; spec: string; svg: string }

type Spec = TopLevelSpec & { transform?: unknown[]; spec?: { layer?: { encoding?: Record<string, unknown> }[] }; config?: Record<string, unknown> };

/** The link of one scorecard cell: the trace list showing exactly the traces it counts. */
export const cellHref = (list: number, label: string) => `#/traces?cell=${list}&label=${encodeURIComponent(label)}`;

function readSpec(name: string): Spec {
  return JSON.parse(fs.readFileSync(path.join(specsDir, `${name}.vl.json`), 'utf8')) as Spec;
}

/**
 * The page inlines every chart: each SVG's ids (vega's gradients and clip paths, numbered from 0 in each
 * SVG by figures/render.ts) get their chart's name, else a second chart's legend would draw the first's gradient.
 */
const ownIds = (chart: string, svg: string) => svg.replace(/(id="|url\(#)(gradient_|clip)(\d+)/g, `$1${chart}-$2$3`);

/** spec + data rows (with href_<measure> fields) + an href channel on the layers that draw them. */
function linked(spec: Spec, table: string, rows: Record<string, unknown>[], hrefExpr: string, layers: number[]): TopLevelSpec {
  const out = structuredClone(spec);
  out.transform = [...(out.transform ?? []), { calculate: hrefExpr, as: 'href' }];
  for (const i of layers) {
    const layer = out.spec?.layer?.[i];
    if (layer) layer.encoding = { ...(layer.encoding ?? {}), href: { field: 'href', type: 'nominal' } };
  }
  return { ...out, datasets: { [table]: rows }, config: { ...(out.config ?? {}), font: font.family } } as TopLevelSpec;
}

/** Each table row of a section with the href of each of its measures' hits. */
function rowsWithLinks(cards: Scorecards, section: string, record: ReportRecord): Record<string, unknown>[] {
  const s = cards.sections.find((x) => x.id === section)!;
  const table = record.tables.get(section)!;
  return table.rows.map((row, i) => {
    const cells = s.rows[i]!.cells;
    const links = Object.fromEntries(Object.entries(cells).map(([m, c]) => [`href_${m}`, cellHref(c.hits, `${section} ${Object.values(s.rows[i]!.key).join(' ')} ${m}`)]));
    return { ...row, ...links };
  });
}

export async function buildCharts(cards: Scorecards, record: ReportRecord): Promise<Chart[]> {
  useFigureFont();
  const charts: Chart[] = [];
  const add = async (id: string, section: string, table: string, hrefExpr: string, layers: number[]) => {
    const rows = rowsWithLinks(cards, section, record);
    if (!rows.length) return;
    const spec = readSpec(id);
    const title = typeof spec.title === 'object' && spec.title && 'text' in spec.title ? String((spec.title as { text: string }).text) : String(spec.title ?? id);
    charts.push({ id, section, title, spec: `figures/${id}.vl.json`, svg: ownIds(id, await svgOf(linked(spec, table, rows, hrefExpr, layers))) });
  };
  // as_vs_vts folds as/vts/fc into `measure` (as_rate, vts_rate, fc_rate): the bar links to that measure's traces
  await add('as_vs_vts', 'layers_overall', 'layers_overall', "datum['href_' + replace(datum.measure, '_rate', '')]", [0]);
  await add('vts_by_layer', 'layers_by_layer', 'layers_by_layer', 'datum.href_vts', [0, 1]);
  await add('horizon', 'layers_horizon', 'layers_horizon', 'datum.href_vts', [1]);
  await add('evidence_errors', 'evidence_confusion', 'evidence_confusion', "datum['href_' + replace(datum.measure, '_rate', '')]", [0]);
  // evaluator_audit colours each cell by its false accepts and writes them in it: both link to those traces
  await add('evaluator_audit', 'evaluator_audit', 'evaluator_audit', 'datum.href_false_accept', [0, 1]);
  return charts;
}
