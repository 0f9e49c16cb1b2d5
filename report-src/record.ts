// What the report reads, and nothing else: the registered trace rows (data/raw), the excluded and
// superseded attempts with their reasons (data/excluded, REASONS.jsonl), the condition definitions
// (data/tasks, frozen) and the tables of analysis/out. Every file it reads is a generated one.
//
//   data/raw/<study>/<arm>/<run>.jsonl ─┐
//   data/excluded/** + REASONS.jsonl ───┼─▶ ReportRecord { runs, reasons, tasks, tables }
//   data/tasks/*.jsonl ─────────────────┤
//   analysis/out/<table>.json ──────────┘
import fs from 'node:fs';
import path from 'node:path';
import { isEvaluatorVerdicts, paths, rel } from '../core/paths.ts';
import { RStackError } from '../core/errors.ts';
import { messages } from '../core/messages.ts';
import { validate } from '../core/validate.ts';

/** A trace row as the report uses it: the schema's fields, read loosely (the runs validated them). */
export type Row = Record<string, any> & { study: 'layers' | 'evidence'; arm: string; run_id: string; condition_id: string; policy: string; browser: { name: string; version: string } };

export interface RunFile {
  /** index of the run in the report (its data shard is data/runs/<index>.js) */
  index: number;
  file: string;
  status: 'registered' | 'excluded';
  /** why it was excluded or superseded (REASONS.jsonl), null for a registered run */
  reason: string | null;
  from: string | null;
  at: string | null;
  rows: Row[];
  /** lines that are not trace rows (a run log, a failed-attempts file): shown as they are */
  otherLines: unknown[];
}

export interface Reason { at: string; file: string; from: string | null; rows?: number; reason: string }

export interface Table { table: string; title: string; columns?: unknown; rows: Record<string, any>[] }

export interface ReportRecord {
  runs: RunFile[];
  reasons: Reason[];
  /** condition definitions per task file (data/tasks/<name>.jsonl), by condition id */
  tasks: Map<string, Map<string, unknown>>;
  tables: Map<string, Table>;
}

function jsonlFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonlFiles(p));
    else if (entry.name.endsWith('.jsonl') && entry.name !== 'REASONS.jsonl') out.push(p);
  }
  return out.sort();
}

/** A file's trace rows; a registered file's are validated against schemas/trace.schema.json as every step reads them
 *  (an excluded file may hold what a failed attempt left: its trace rows are kept as written, other lines counted). */
function readLines(file: string, validated: boolean): { rows: Row[]; other: unknown[] } {
  const rows: Row[] = [];
  const other: unknown[] = [];
  const text = fs.readFileSync(file, 'utf8');
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: any;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new RStackError(`${rel(file)}:${i + 1}: is not valid JSON (${(cause as Error).message})`, { exitCode: 2, cause });
    }
    if (validated) rows.push(validate<Row>('trace', value, { file: rel(file), line: i + 1 }));
    else if (value && value.schema === 'trace/1') rows.push(value as Row);
    else other.push(value);
  });
  return { rows, other };
}

/** The tables the report binds to (analysis/out/<name>.json); a missing one is an error naming the step that writes it. */
export const reportTables = ['layers_overall', 'layers_by_layer', 'layers_by_template', 'layers_horizon', 'layers_claims', 'layers_pilot', 'agent_by_layer', 'agent_real_apps', 'layers_real_apps', 'layers_real_apps_v2', 'layers_transport', 'layers_transport_v2', 'evidence_by_scenario', 'evidence_confusion', 'evaluator_audit', 'evaluator_audit_traces'] as const;

export function readRecord(): ReportRecord {
  const reasonsFile = paths.exclusionLog();
  const reasons: Reason[] = fs.existsSync(reasonsFile)
    ? fs.readFileSync(reasonsFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Reason)
    : [];
  const reasonOf = new Map(reasons.map((r) => [r.file, r]));
  const runs: RunFile[] = [];
  const add = (file: string, status: RunFile['status']) => {
    const { rows, other } = readLines(file, status === 'registered');
    const why = reasonOf.get(rel(file));
    runs.push({ index: runs.length, file: rel(file), status, reason: status === 'excluded' ? why?.reason ?? 'no reason recorded in data/excluded/REASONS.jsonl' : null, from: why?.from ?? null, at: why?.at ?? null, rows, otherLines: other });
  };
  for (const f of jsonlFiles(paths.raw()).filter((f) => !isEvaluatorVerdicts(f))) add(f, 'registered');
  for (const f of jsonlFiles(paths.excluded())) add(f, 'excluded');

  const tasks = new Map<string, Map<string, unknown>>();
  for (const f of jsonlFiles(paths.tasks())) {
    const byId = new Map<string, unknown>();
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const t = JSON.parse(line) as { condition_id?: string };
      if (t.condition_id) byId.set(t.condition_id, t);
    }
    if (byId.size) tasks.set(path.relative(paths.tasks(), f).split(path.sep).join('/'), byId);
  }
  // Arm B's samples are manifests of cases (data/tasks/arm-b/*.json): a row's condition is <sample>/<case>/<rep>
  const armB = path.join(paths.tasks(), 'arm-b');
  for (const f of fs.existsSync(armB) ? fs.readdirSync(armB).filter((n) => n.endsWith('.json')).sort() : []) {
    const manifest = JSON.parse(fs.readFileSync(path.join(armB, f), 'utf8')) as { id?: string; description?: string; origin?: string; cases?: { id: string }[] };
    if (!manifest.id || !Array.isArray(manifest.cases)) continue;
    const byId = new Map<string, unknown>();
    for (const c of manifest.cases) byId.set(`${manifest.id}/${c.id}`, { sample: manifest.id, sample_description: manifest.description, origin: manifest.origin, ...c });
    tasks.set(`arm-b/${f}`, byId);
  }

  const tables = new Map<string, Table>();
  for (const name of reportTables) {
    const file = path.join(paths.analysisOut(), `${name}.json`);
    if (!fs.existsSync(file)) throw new RStackError(messages.reportMissingTable(name), { exitCode: 2 });
    tables.set(name, JSON.parse(fs.readFileSync(file, 'utf8')) as Table);
  }
  return { runs, reasons, tasks, tables };
}
