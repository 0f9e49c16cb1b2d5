// The reanalysis, every step declaring what it reads and what it produces:
//
//   1. list      data/raw/<study>/**/*.jsonl                      → the files, sorted
//   2. read      the files, each row validated (core/jsonl.ts)     → located rows
//   3. check     the rows: smoke rows, duplicate traces, FC = AS ∧ ¬VTS  → problems
//   4. SQL       queries/load_*.sql + queries/<table>.sql (DuckDB) → SQL tables
//   5. recount   recount.ts, in TypeScript from the rows           → recount tables
//   6. compare   compare.ts, every row and count                   → problems naming table, row, column
//   7. verdicts  verdicts.ts: recompute each evidence verdict from its events → a table + problems
//   7b. others   production-exploratory.ts (arm-b's exploratory rules on the negatives); verifier-replay.ts (the
//                verifier's contract replayed on the controlled arm and Arm A); pilot-excluded.ts (the pilot's
//                answers that gave no plan, from data/plans and data/excluded/pilot); deviations.ts (from the record:
//                ledger, preregs, data/excluded, data/runs.jsonl); evaluator-audit.ts (the real-application traces
//                re-scored from their kept files: evaluator_audit, and the rows it counts, evaluator_audit_traces) → tables
//   8. write     out/<table>.json and .csv, with Wilson intervals and McNemar p → files
//
// Any problem in 3, 6 or 7 fails the whole reanalysis before anything is written.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../core/paths.ts';
import { rawFiles, readRows, type EvidenceRow, type LayersRow } from './rows.ts';
import { SqlSession } from './duck.ts';
import { recount, rowProblems } from './recount.ts';
import { compareTable } from './compare.ts';
import { checkVerdicts, type VerdictRegistry } from './verdicts.ts';
import { registry as defaultRegistry } from './verdict-registry.ts';
import { tables, finishRow, type TableRow } from './tables.ts';
import { tableFile, toCatalog, toCsv, toJson } from './output.ts';
import { productionExploratory } from './production-exploratory.ts';
import { deviations } from './deviations.ts';
import { evaluatorAudit } from './evaluator-audit.ts';
import { verifierReplay } from './verifier-replay.ts';
import { pilotExcluded } from './pilot-excluded.ts';

export interface ReanalyzeOptions {
  /** where the raw trace rows are (default data/raw) */
  rawDir?: string;
  /** where the tables go (default analysis/out); write: false writes nothing */
  outDir?: string;
  write?: boolean;
  /** the SQL (default analysis/queries) */
  queriesDir?: string;
  registry?: VerdictRegistry;
}

export interface ReanalyzeResult {
  problems: string[];
  tables: Record<string, TableRow[]>;
  /** files written, relative to outDir, sorted */
  written: string[];
  read: { layersRows: number; layersFiles: number; evidenceRows: number; evidenceFiles: number };
  /** cells SQL and recount were compared on */
  cellsCompared: number;
  verdictsRechecked: number;
}

export async function reanalyze(options: ReanalyzeOptions = {}): Promise<ReanalyzeResult> {
  const rawDir = options.rawDir ?? paths.raw();
  const outDir = options.outDir ?? paths.analysisOut();
  const relative = (file: string) => (path.resolve(file).startsWith(path.resolve(rawDir)) ? rel(file) : file);

  // 1-2. list and read
  const files = { layers: rawFiles('layers', rawDir), evidence: rawFiles('evidence', rawDir) };
  const input = { layers: readRows<LayersRow>(files.layers), evidence: readRows<EvidenceRow>(files.evidence) };
  // a file under data/raw/layers must hold layers rows: the SQL reads each study's files apart
  const misplaced = [
    ...input.layers.filter((l) => l.row.study !== 'layers'),
    ...input.evidence.filter((l) => l.row.study !== 'evidence'),
  ].map((l) => `${relative(l.file)}:${l.line}: a ${l.row.study} row under data/raw/${l.row.study === 'layers' ? 'evidence' : 'layers'}/`);

  // 3. row checks
  const problems = [...misplaced, ...rowProblems(input, relative)];

  // 4-6. SQL, recount, compare
  const counted = recount(input);
  const sqlTables: Record<string, TableRow[]> = {};
  let cellsCompared = 0;
  const session = await SqlSession.open(files, options.queriesDir);
  try {
    for (const def of tables.filter((t) => t.source === 'sql')) {
      const sqlRows = await session.query(def.name);
      sqlTables[def.name] = sqlRows;
      problems.push(...compareTable(def, sqlRows, counted[def.name] ?? []));
      cellsCompared += sqlRows.length * (def.counts.length + def.measures.length);
    }
  } finally {
    session.close();
  }

  // 7. verdicts
  const verdicts = checkVerdicts(input.evidence, options.registry ?? defaultRegistry, relative);
  problems.push(...verdicts.problems);
  const verdictsRechecked = verdicts.rows.reduce((s, r) => s + (r.rechecked as number), 0);

  // 8. finish and write
  const finished: Record<string, TableRow[]> = {};
  const audit = evaluatorAudit(rawDir);
  problems.push(...audit.problems);
  const computed: Record<string, TableRow[]> = {
    evidence_verdict_check: verdicts.rows,
    evaluator_audit: audit.rows,
    evaluator_audit_traces: audit.traces,
    evidence_production_exploratory: productionExploratory(input.evidence),
    evidence_verifier_replay: verifierReplay(input.evidence),
    layers_pilot_excluded: pilotExcluded(),
    ...deviations(),
  };
  for (const def of tables) {
    const rows = def.source === 'sql' ? sqlTables[def.name]! : computed[def.name];
    if (!rows) throw new Error(`analysis/tables.ts: table ${def.name} (${def.source}) has no computation in reanalyze.ts`);
    finished[def.name] = rows.map((r) => finishRow(def, r));
  }
  const written: string[] = [];
  if (problems.length === 0 && options.write !== false) {
    fs.mkdirSync(outDir, { recursive: true });
    const expected = new Set<string>();
    for (const def of tables) {
      const file = tableFile(def, finished[def.name]!);
      for (const [ext, text] of [['json', toJson(file)], ['csv', toCsv(file)]] as const) {
        const name = `${def.name}.${ext}`;
        fs.writeFileSync(path.join(outDir, name), text);
        expected.add(name);
        written.push(name);
      }
    }
    fs.writeFileSync(path.join(outDir, 'catalog.json'), toCatalog(tables));
    expected.add('catalog.json');
    written.push('catalog.json');
    // a table that no longer exists must not linger for the paper to pick up
    for (const name of fs.readdirSync(outDir)) {
      if (/\.(json|csv)$/.test(name) && !expected.has(name)) fs.rmSync(path.join(outDir, name));
    }
  }
  return {
    problems,
    tables: finished,
    written: written.sort(),
    read: { layersRows: input.layers.length, layersFiles: files.layers.length, evidenceRows: input.evidence.length, evidenceFiles: files.evidence.length },
    cellsCompared,
    verdictsRechecked,
  };
}
