// The report's share of make bench: how long `make report` takes on the registered record, how
// big report/ is and what the opening page loads, and how the page answers in Debian's Chromium
// from file:// — the opening page until its scorecards are drawn, the trace list filtered over
// every trace (a select changed until the count is redrawn), one trace opened (its run's shard
// loaded and its timeline drawn). Then the same list with every trace repeated `scale` times (a
// synthetic index beside the report, its rows the real ones), to see that a record ten times
// today's stays responsive: the list is paged, so only its filter grows with it.
// Medians of a few repetitions; written to bench/report-results.json.
// Reads: data/raw, data/excluded, data/tasks, analysis/out (as make report does). Writes: a scratch folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildReport } from '../../report-src/build.ts';
import { readRecord } from '../../report-src/record.ts';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/launch.ts';
import { median } from '../../core/stats.ts';

export interface ReportBench {
  generation_ms: number[]; generation_ms_median: number;
  bytes: number; files: number; opening_page_bytes: number; largest_shard_bytes: number;
  traces: number; registered: number; excluded: number;
  load_ms: number[]; load_ms_median: number;
  filter_ms: number[]; filter_ms_median: number; filtered_over: number;
  open_trace_ms: number[]; open_trace_ms_median: number;
  scaled: { factor: number; traces: number; index_bytes: number; load_ms_median: number; filter_ms_median: number };
  browser: string; repetitions: number;
  /** the machine's load average (1, 5, 15 min) when the measurement began: the numbers are only as quiet as the machine */
  load_average: number[];
}

/** The page in `dir` with its index's traces repeated `factor` times, written to `into`. */
function scaledCopy(dir: string, into: string, factor: number): { traces: number; bytes: number } {
  fs.rmSync(into, { recursive: true, force: true });
  fs.cpSync(dir, into, { recursive: true });
  const file = path.join(into, 'data', 'index.js');
  const text = fs.readFileSync(file, 'utf8');
  const index = JSON.parse(text.slice('RSB.index('.length, text.lastIndexOf(');')));
  index.traces.rows = Array.from({ length: factor }, () => index.traces.rows).flat();
  const scaled = `RSB.index(${JSON.stringify(index)});\n`;
  fs.writeFileSync(file, scaled);
  return { traces: index.traces.rows.length, bytes: Buffer.byteLength(scaled) };
}

/** Opens the page, then filters its whole list to the false completions: [load ms, filter ms, traces listed before]. */
async function loadAndFilter(browser: Browser, dir: string): Promise<[number, number, number]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const url = pathToFileURL(path.join(dir, 'index.html')).href;
    let t0 = performance.now();
    await page.goto(url);
    await page.waitForSelector('section.scorecard');
    const load = performance.now() - t0;
    await page.goto(`${url}#/traces?status=all`);
    await page.waitForSelector('#count');
    const before = Number(await page.textContent('#count b'));
    t0 = performance.now();
    await page.selectOption('#f-outcome', 'fc');
    await page.waitForFunction((n) => document.querySelector('#count b')?.textContent !== String(n), before);
    return [Math.round(load), Math.round(performance.now() - t0), before];
  } finally {
    await context.close();
  }
}

export async function benchReport(outDir: string, repetitions = 3, scale = 10): Promise<ReportBench> {
  const loadAverage = os.loadavg().map((x) => Math.round(x * 100) / 100);
  const generation: number[] = [];
  let built;
  for (let i = 0; i < repetitions; i++) {
    const t0 = performance.now();
    built = await buildReport({ outDir, record: readRecord() });
    generation.push(Math.round(performance.now() - t0));
  }
  const b = built!;
  const shards = fs.readdirSync(path.join(outDir, 'data', 'runs')).map((f) => fs.statSync(path.join(outDir, 'data', 'runs', f)).size);
  const { browser, version } = await launchBrowser('chromium', null);
  const load: number[] = [];
  const filter: number[] = [];
  const open: number[] = [];
  let filteredOver = 0;
  let scaled: ReportBench['scaled'] | undefined;
  try {
    for (let i = 0; i < repetitions; i++) {
      const [l, f, over] = await loadAndFilter(browser, outDir);
      load.push(l);
      filter.push(f);
      filteredOver = over;
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${pathToFileURL(path.join(outDir, 'index.html')).href}#/traces?status=all&outcome=fc`);
      await page.waitForSelector('#trace-table');
      const t0 = performance.now();
      await page.locator('#trace-table tbody tr a.open').first().click();
      await page.waitForSelector('#timeline svg');
      open.push(Math.round(performance.now() - t0));
      await context.close();
    }
    const copy = scaledCopy(outDir, `${outDir}-x${scale}`, scale);
    const scaledRuns = [];
    for (let i = 0; i < repetitions; i++) scaledRuns.push(await loadAndFilter(browser, `${outDir}-x${scale}`));
    scaled = { factor: scale, traces: copy.traces, index_bytes: copy.bytes, load_ms_median: median(scaledRuns.map((r) => r[0]))!, filter_ms_median: median(scaledRuns.map((r) => r[1]))! };
  } finally {
    await browser.close();
  }
  return {
    generation_ms: generation, generation_ms_median: median(generation)!,
    bytes: b.bytes, files: b.files, opening_page_bytes: b.pageBytes, largest_shard_bytes: Math.max(...shards),
    traces: b.traces, registered: b.registered, excluded: b.excluded,
    load_ms: load, load_ms_median: median(load)!,
    filter_ms: filter, filter_ms_median: median(filter)!, filtered_over: filteredOver,
    open_trace_ms: open, open_trace_ms_median: median(open)!,
    scaled: scaled!, browser: `chromium ${version}`, repetitions, load_average: loadAverage,
  };
}

export const reportBenchLine = (r: ReportBench) =>
  `  report             generation ${r.generation_ms_median} ms (median of ${r.repetitions}); ${(r.bytes / 1e6).toFixed(1)} MB in ${r.files} files, the opening page ${(r.opening_page_bytes / 1e6).toFixed(2)} MB, the largest run shard ${(r.largest_shard_bytes / 1e6).toFixed(1)} MB; ` +
  `in Chromium from file://: load ${r.load_ms_median} ms, filter over ${r.filtered_over} traces ${r.filter_ms_median} ms, open a trace ${r.open_trace_ms_median} ms; ` +
  `with ${r.scaled.traces} traces (×${r.scaled.factor}, synthetic index of ${(r.scaled.index_bytes / 1e6).toFixed(1)} MB): load ${r.scaled.load_ms_median} ms, filter ${r.scaled.filter_ms_median} ms; load average ${r.load_average.join(' ')}`;
