// Renders every figures/*.vl.json, bound to the table it names in analysis/out, to SVG (vega,
// headless, no canvas: text widths are estimated, so they never depend on the machine) and to PNG
// (resvg, with one font file and no system fonts, so the pixels never depend on the machine either).
//
//   figures/<name>.vl.json + analysis/out/<table>.json ──vega-lite──▶ vega ──▶ <name>.svg ──resvg──▶ <name>.png
import fs from 'node:fs';
import path from 'node:path';
import { compile, type TopLevelSpec } from 'vega-lite';
import * as vega from 'vega';
import { parse, View } from 'vega';
import { Resvg } from '@resvg/resvg-js';
import { codeRoot, paths } from '../core/paths.ts';
import { RStackError } from '../core/errors.ts';
import { messages } from '../core/messages.ts';
import { readFontMetrics, widthFunction } from './text-metrics.ts';

export const specsDir = path.join(codeRoot, 'figures');

/** The one font every figure uses: Debian's fonts-dejavu-core (a dependency of chromium). */
export const font = {
  family: 'DejaVu Sans',
  files: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'],
};

export interface RenderOptions { dataDir?: string; outDir?: string; only?: string[] }

interface TableJson { table: string; rows: Record<string, unknown>[] }

export function figureNames(): string[] {
  return fs.readdirSync(specsDir).filter((f) => f.endsWith('.vl.json')).map((f) => f.replace(/\.vl\.json$/, '')).sort();
}

/** The analysis table a spec draws from: its top-level named data source. */
export function tableOf(spec: { data?: { name?: string } }, name: string): string {
  const table = spec.data?.name;
  if (!table) throw new RStackError(`figures/${name}.vl.json: its data must be {"name": "<table in analysis/out>"}`, { exitCode: 2 });
  return table;
}

/** What a figure says while its data does not exist yet, instead of an empty frame. */
function placeholder(spec: TopLevelSpec & { title?: unknown }, table: string): TopLevelSpec {
  const title = typeof spec.title === 'object' && spec.title && 'text' in spec.title ? (spec.title as { text: string }).text : String(spec.title ?? '');
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 420,
    height: 60,
    data: { values: [{ message: `No registered data yet (analysis/out/${table}.json has no rows).` }] },
    mark: { type: 'text', fontSize: 13 },
    encoding: { text: { field: 'message' } },
    config: { view: { stroke: '#bbb' } },
  } as TopLevelSpec;
}

export async function svgOf(spec: TopLevelSpec): Promise<string> {
  const vega = compile(spec).spec;
  const view = new View(parse(vega), { renderer: 'none' });
  try {
    return stableIds(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * vega numbers gradients and clip paths with process-wide counters, so the second figure drawn in
 * one process would carry different ids than when drawn alone; renumber them per SVG, in order.
 */
export function stableIds(svg: string): string {
  const seen = new Map<string, string>();
  return svg.replace(/(id="|url\(#)(gradient_|clip)(\d+)/g, (_, lead: string, prefix: string, n: string) => {
    const old = prefix + n;
    let fresh = seen.get(old);
    if (!fresh) seen.set(old, (fresh = `${prefix}${[...seen.keys()].filter((k) => k.startsWith(prefix)).length}`));
    return lead + fresh;
  });
}

export function pngOf(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: false, fontFiles: font.files, defaultFontFamily: font.family, sansSerifFamily: font.family },
  });
  return resvg.render().asPng();
}

/** Lays vega's text out in the figures' font (every SVG drawn after this call); throws when the font is missing. */
export function useFigureFont(): void {
  for (const f of font.files) {
    if (!fs.existsSync(f)) throw new RStackError(`the figures' font ${f} is missing: apt-get install -y fonts-dejavu-core`, { exitCode: 2 });
  }
  // vega lays text out with the widths of the font resvg will draw it in
  // (vega's typings omit textMetrics; it is the documented hook, the one vl-convert uses)
  (vega as unknown as { textMetrics: { width: unknown } }).textMetrics.width = widthFunction(readFontMetrics(font.files[0]!), readFontMetrics(font.files[1]!));
}

/** Renders the figures; returns the files written, relative to outDir. */
export async function renderFigures(options: RenderOptions = {}): Promise<string[]> {
  const dataDir = options.dataDir ?? paths.analysisOut();
  const outDir = options.outDir ?? paths.figuresOut();
  useFigureFont();
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const name of options.only ?? figureNames()) {
    const spec = JSON.parse(fs.readFileSync(path.join(specsDir, `${name}.vl.json`), 'utf8')) as TopLevelSpec & { data?: { name?: string }; config?: Record<string, unknown> };
    const table = tableOf(spec, name);
    const dataFile = path.join(dataDir, `${table}.json`);
    if (!fs.existsSync(dataFile)) throw new RStackError(messages.figuresMissingTable(table), { exitCode: 2 });
    const rows = (JSON.parse(fs.readFileSync(dataFile, 'utf8')) as TableJson).rows;
    const bound = rows.length
      ? ({ ...spec, datasets: { [table]: rows } } as TopLevelSpec)
      : placeholder(spec, table);
    const fixedFont = { ...bound, config: { ...((bound as { config?: object }).config ?? {}), font: font.family } } as TopLevelSpec;
    const svg = await svgOf(fixedFont);
    fs.writeFileSync(path.join(outDir, `${name}.svg`), svg);
    fs.writeFileSync(path.join(outDir, `${name}.png`), pngOf(svg));
    written.push(`${name}.svg`, `${name}.png`);
  }
  return written.sort();
}
