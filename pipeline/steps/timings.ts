// rstackbench timings: how long each registered run took, computed from the record, not remembered.
//   data/raw/<study>/<arm>/<run>.jsonl ─▶ per run: rows, first row's start, last row's end,
//   the sum of the rows' own elapsed_ms, the most rows in flight at once, and which other runs
//   were in flight at the same time (the machine was shared then) ─▶ a Markdown table on stdout
// Reads: data/raw. Writes: nothing. The wall time counts from the first row's start to the last
// row's end: the browser's launch before the first row and the summary after the last are not in it.
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { formatDuration } from '../../core/log.ts';
import { isEvaluatorVerdicts, paths, rel } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { listFiles } from '../../core/files.ts';
import { isMain } from '../../core/entry.ts';

interface TimedRow { study: string; arm: string; run_id: string; browser: { name: string }; started_at: string; elapsed_ms: number }

export interface RunTiming {
  file: string;
  study: string;
  arm: string;
  browser: string;
  rows: number;
  firstStart: number;
  lastEnd: number;
  /** the sum of every row's own elapsed_ms */
  rowsMs: number;
  /** the most rows whose [started_at, started_at + elapsed_ms) intervals overlap */
  mostAtOnce: number;
  /** the longest pause between one row's end and the next row's start (a stop and resume shows here) */
  longestPauseMs: number;
  /** other runs whose first-start..last-end interval overlaps this one's */
  overlaps: string[];
}

export function runTiming(file: string, rows: TimedRow[]): RunTiming {
  const spans = rows.map((r) => ({ start: Date.parse(r.started_at), end: Date.parse(r.started_at) + r.elapsed_ms })).sort((a, b) => a.start - b.start);
  let lastEnd = -Infinity;
  let longestPauseMs = 0;
  for (const s of spans) {
    if (Number.isFinite(lastEnd)) longestPauseMs = Math.max(longestPauseMs, s.start - lastEnd);
    lastEnd = Math.max(lastEnd, s.end);
  }
  // the most intervals open at once: sweep over starts (+1) and ends (-1), ends first on a tie
  const edges = spans.flatMap((s) => [[s.start, 1], [s.end, -1]] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let mostAtOnce = 0;
  for (const [, d] of edges) mostAtOnce = Math.max(mostAtOnce, (open += d));
  const first = rows[0]!;
  return {
    file,
    study: first.study,
    arm: first.arm,
    browser: first.browser.name,
    rows: rows.length,
    firstStart: spans[0]!.start,
    lastEnd,
    rowsMs: rows.reduce((sum, r) => sum + r.elapsed_ms, 0),
    mostAtOnce,
    longestPauseMs: Math.max(0, longestPauseMs),
    overlaps: [],
  };
}

/** Fills in which runs were in flight at the same time. */
export function markOverlaps(runs: RunTiming[]): RunTiming[] {
  for (const a of runs) {
    a.overlaps = runs.filter((b) => b !== a && b.firstStart < a.lastEnd && a.firstStart < b.lastEnd).map((b) => path.basename(b.file, '.jsonl'));
  }
  return runs;
}

export function formatTimings(runs: RunTiming[]): string {
  const lines = [
    '| run | study / arm | browser | rows | first row started (UTC) | wall time, first row to last | rows\' own time | most rows at once | longest pause | in flight at the same time |',
    '|---|---|---|---:|---|---:|---:|---:|---:|---|',
  ];
  for (const r of runs) {
    lines.push(
      `| \`${path.basename(r.file, '.jsonl')}\` | ${r.study} / ${r.arm} | ${r.browser} | ${r.rows} | ${new Date(r.firstStart).toISOString().replace(/\.\d+Z$/, 'Z')} | ${formatDuration(r.lastEnd - r.firstStart)} | ${formatDuration(r.rowsMs)} | ${r.mostAtOnce} | ${formatDuration(r.longestPauseMs)} | ${r.overlaps.length ? r.overlaps.map((o) => `\`${o}\``).join(', ') : '—'} |`,
    );
  }
  return lines.join('\n');
}

export function registeredTimings(): RunTiming[] {
  const files = listFiles(paths.raw()).filter((f) => f.endsWith('.jsonl') && !isEvaluatorVerdicts(f));
  const runs = files
    .map((f) => ({ f, rows: readJsonl<TimedRow>(f, { schema: 'trace' }) }))
    .filter(({ rows }) => rows.length > 0)
    .map(({ f, rows }) => runTiming(rel(f), rows))
    .sort((a, b) => a.firstStart - b.firstStart);
  return markOverlaps(runs);
}

if (isMain(import.meta.url)) {
  await main({
    name: 'rstackbench timings',
    summary: 'how long each registered run in data/raw took, computed from its rows\' started_at and elapsed_ms (a Markdown table)',
    async run() {
      const runs = registeredTimings();
      process.stdout.write(runs.length ? formatTimings(runs) + '\n' : 'no registered runs under data/raw\n');
    },
  });
}
