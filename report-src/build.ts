// make report: one static site in report/ that opens from the file system (file://, no server, no
// network), made from the generated files alone (report-src/record.ts says which).
//
//   1 readRecord          data/raw, data/excluded + REASONS.jsonl, data/tasks, analysis/out
//   2 buildScorecards     analysis/out's numbers, each recounted from the registered rows, with the traces it counts;
//     auditSection        and the evaluator audit's, recounted from analysis/out's rows of its traces (report-src/audit.ts)
//   3 buildCharts         the project's Vega-Lite specs (figures/) rendered to SVG with links to those traces
//   4 write               report/index.html, app.js, style.css (report-src/page/, copied), and the data as
//                         <script> files (fetch() of file:// is blocked): data/index.js (one summary line
//                         per trace, for the list and its filters), data/scorecards.js, and each run's rows in
//                         parts of about 1 MB (data/runs/<run>-<part>.js) and each task file (data/tasks/<n>.js),
//                         loaded when a trace is opened
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, rel } from '../core/paths.ts';
import { readRecord, type ReportRecord, type Row } from './record.ts';
import { buildScorecards, type Trace } from './scorecards.ts';
import { buildCharts } from './charts.ts';
import { auditSection } from './audit.ts';
import { readRunFolder, yourRunSection } from './your-run.ts';

const pageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page');
export const pageFiles = ['index.html', 'app.js', 'style.css'];

/** Where make report writes (git-ignored). */
export const reportDir = () => path.join(root(), 'report');

/**
 * One trace's line in data/index.js: what the list shows and filters on, and where its row lives.
 * Written as a tuple in the order of `traceColumns`, its strings as indices into one dictionary
 * (5000 traces in a few hundred kB, not megabytes); the page decodes it once.
 */
export interface TraceSummary {
  run: number; line: number; status: 'registered' | 'excluded';
  study: string; arm: string; browser: string; policy: string; cid: string;
  template: string | null; layer: string | null; severity: number | null; horizon: number | null;
  as: boolean | null; vts: boolean | null; fc: boolean | null; claim: boolean | null;
  error: boolean; timing: boolean; truth: string | null; scenario: string | null;
  /** evidence rows: each policy's verdict, "policy=1 policy=0 …" (1: accept) */
  accepts: string | null;
  /** the same unit in every run and browser (flips are compared within it) */
  unit: string;
  /** index into the task files (data/tasks/<n>.js) holding the condition's definition, or -1 */
  task: number;
}
export const traceColumns = ['run', 'line', 'status', 'study', 'arm', 'browser', 'policy', 'cid', 'template', 'layer', 'severity', 'horizon', 'as', 'vts', 'fc', 'claim', 'error', 'timing', 'truth', 'scenario', 'accepts', 'unit', 'task'] as const;
const stringColumns = new Set(['status', 'study', 'arm', 'browser', 'policy', 'cid', 'template', 'layer', 'truth', 'scenario', 'accepts', 'unit']);

export interface Built { dir: string; files: number; bytes: number; pageBytes: number; traces: number; registered: number; excluded: number; runs: number; ms: number }

/** The unit a trace measures, the same in every run and browser of it (its flips are compared there). */
export function unitOf(r: Row): string {
  if (r.study === 'evidence') return `evidence|${r.arm === 'arm-b' || r.arm === 'arm-b-contracts' ? r.arm : 'matrix'}|${r.condition_id}`;
  // a real-apps version-2 row is another unit than version 1's of the same condition id (another protocol)
  return `layers|${r.arm}${r.arm_version ? `@v${r.arm_version}` : ''}|${r.condition_id}|${r.policy}${r.arm === 'horizon' ? `|${r.horizon_ms}` : ''}`;
}

function summary(t: Trace, status: TraceSummary['status'], taskOf: (r: Row) => number): TraceSummary {
  const r = t.row;
  const layers = r.study === 'layers';
  return {
    run: t.run, line: t.line, status,
    study: r.study, arm: r.arm, browser: r.browser?.name, policy: r.policy, cid: r.condition_id,
    template: layers ? r.template : null, layer: layers ? r.layer : null, severity: layers ? r.severity : null, horizon: layers ? r.horizon_ms : null,
    as: layers ? r.apparent_success : null, vts: layers ? r.vts : r.truth === 'success', fc: layers ? r.false_completion : null,
    claim: r.claim === undefined ? null : r.claim?.done ?? false,
    error: r.error != null, timing: r.timing_sensitive === true,
    truth: layers ? null : r.truth, scenario: layers ? null : r.scenario,
    accepts: layers ? null : Object.entries(r.verdicts ?? {}).map(([p, v]) => `${p}=${(v as { accept: boolean }).accept ? 1 : 0}`).join(' '),
    unit: unitOf(r), task: taskOf(r),
  };
}

/** The summaries as tuples with a string dictionary (see TraceSummary). */
export function encodeSummaries(list: TraceSummary[]): { columns: readonly string[]; strings: string[]; rows: unknown[][] } {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const intern = (v: string) => {
    let id = ids.get(v);
    if (id === undefined) ids.set(v, (id = strings.push(v) - 1));
    return id;
  };
  const rows = list.map((s) => traceColumns.map((c) => {
    const v = s[c];
    if (v === null || v === undefined) return null;
    if (typeof v === 'boolean') return v ? 1 : 0;
    return stringColumns.has(c) ? intern(String(v)) : v;
  }));
  return { columns: traceColumns, strings, rows };
}

/** A data file: one call of the page's loader (report-src/page/app.js, RSB) with the data as its arguments. */
const script = (call: string, ...args: unknown[]) => `${call}(${args.map((a) => JSON.stringify(a)).join(', ')});\n`;

/** A run's rows cut into parts of about `budget` bytes (an Arm B row holds 100 kB of events): opening a trace loads one part. */
export function partsOf(rows: Row[], budget = 1_000_000): { start: number; text: unknown[] }[] {
  const parts: { start: number; text: unknown[]; bytes: number }[] = [];
  rows.forEach((row, line) => {
    const bytes = JSON.stringify(row).length;
    const last = parts.at(-1);
    if (!last || (last.bytes + bytes > budget && last.text.length > 0)) parts.push({ start: line, text: [row], bytes });
    else { last.text.push(row); last.bytes += bytes; }
  });
  if (!parts.length) parts.push({ start: 0, text: [], bytes: 0 });
  return parts.map(({ start, text }) => ({ start, text }));
}

export async function buildReport(options: { outDir?: string; record?: ReportRecord; yourRun?: string } = {}): Promise<Built> {
  const started = performance.now();
  const dir = options.outDir ?? reportDir();
  const record = options.record ?? readRecord();
  // your own run (make report RUN=runs/…): its files join the report as excluded runs (never the
  // record's), and its section stands first, beside the registered rows of the same conditions
  const yours = options.yourRun ? readRunFolder(options.yourRun) : [];
  const yourRuns = new Set<number>();
  for (const f of yours) {
    yourRuns.add(record.runs.length);
    record.runs.push({ index: record.runs.length, file: f.file, status: 'excluded', reason: `your run (make report RUN=${options.yourRun}): not part of the record`, from: null, at: null, rows: f.rows, otherLines: [] });
  }

  // traces: the registered runs' rows first (their ids are the scorecards'), then the excluded ones
  const traces: { trace: Trace; status: TraceSummary['status'] }[] = [];
  for (const status of ['registered', 'excluded'] as const) {
    for (const run of record.runs.filter((r) => r.status === status)) {
      run.rows.forEach((row, line) => traces.push({ trace: { id: traces.length, run: run.index, line, row }, status }));
    }
  }
  const registered = traces.filter((t) => t.status === 'registered').map((t) => t.trace);
  const cards = buildScorecards(record, registered);
  // the sections built apart add their trace lists to the scorecards' (one list, one id)
  const lists = new Map(cards.lists.map((l, i) => [l.join(','), i]));
  const listOf = (ids: number[]) => {
    const key = ids.join(',');
    let id = lists.get(key);
    if (id === undefined) lists.set(key, (id = cards.lists.push(ids) - 1));
    return id;
  };
  cards.sections.push(auditSection(record, registered, listOf));
  if (yours.length) {
    const mine = traces.filter((t) => yourRuns.has(t.trace.run)).map((t) => t.trace);
    cards.sections.unshift(yourRunSection(mine, registered, listOf, options.yourRun!));
  }
  const charts = await buildCharts(cards, record);

  const taskFiles = [...record.tasks.keys()];
  const taskOf = (r: Row) => {
    const id = r.arm === 'arm-b' || r.arm === 'arm-b-contracts' ? String(r.condition_id).split('/').slice(0, 2).join('/') : r.condition_id;
    // a real-apps row of version N ≥ 2 was made from that version's conditions, not version 1's of the same id
    const versioned = r.arm_version ? taskFiles.indexOf(`layers-real-apps-v${r.arm_version}.jsonl`) : -1;
    return versioned >= 0 && record.tasks.get(taskFiles[versioned]!)!.has(id) ? versioned : taskFiles.findIndex((f) => record.tasks.get(f)!.has(id));
  };

  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'data', 'runs'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'data', 'tasks'), { recursive: true });
  let bytes = 0;
  let files = 0;
  const write = (p: string, text: string | Buffer) => {
    fs.writeFileSync(path.join(dir, p), text);
    bytes += Buffer.byteLength(text);
    files++;
  };
  for (const f of pageFiles) write(f, fs.readFileSync(path.join(pageDir, f)));
  const runParts = record.runs.map((r) => partsOf(r.rows));
  const index = {
    generated: { at: new Date().toISOString(), root: rel(root()) || '.', from: ['data/raw', 'data/excluded', 'data/tasks', 'analysis/out'] },
    runs: record.runs.map((r, i) => ({ index: r.index, parts: runParts[i]!.map((p) => p.start), file: r.file, status: r.status, reason: r.reason, from: r.from, at: r.at, rows: r.rows.length, other_lines: r.otherLines, study: r.rows[0]?.study ?? null, arm: r.rows[0]?.arm ?? null, browser: r.rows[0]?.browser?.name ?? null, run_id: r.rows[0]?.run_id ?? path.basename(r.file, '.jsonl') })),
    reasons: record.reasons,
    tasks: taskFiles,
    traces: encodeSummaries(traces.map((t) => summary(t.trace, t.status, taskOf))),
  };
  write('data/index.js', script('RSB.index', index));
  write('data/scorecards.js', script('RSB.scorecards', { ...cards, charts }));
  record.runs.forEach((run, r) => runParts[r]!.forEach((p, i) => write(`data/runs/${run.index}-${i}.js`, script('RSB.run', run.index, i, p.start, p.text))));
  taskFiles.forEach((f, i) => write(`data/tasks/${i}.js`, script('RSB.tasks', i, Object.fromEntries(record.tasks.get(f)!))));
  const pageBytes = ['index.html', 'app.js', 'style.css', 'data/index.js', 'data/scorecards.js'].reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
  return { dir, files, bytes, pageBytes, traces: traces.length, registered: registered.length, excluded: traces.length - registered.length, runs: record.runs.length, ms: Math.round(performance.now() - started) };
}
