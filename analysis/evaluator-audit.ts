// The audit of other evaluators against the store (issue 51): every registered real-application
// trace that kept its files beside its row, re-scored from them alone (analysis/rescore.ts), and
// each evaluator's verdict set beside the store's at the boundary, which is the truth here.
//
//   data/raw/layers/{real-apps,transport,agent}/<run>.jsonl + <run>.files/ ──rescore──▶ evaluator_audit
//
// Evaluators, each from the same files:
//   store        the family's postcondition read at the boundary (ours): the reference, 0 by definition
//   page         the success notice showed at or before the boundary (AS: what a page-reading judge sees)
//   claim        the policy's or agent's own "done" (version 2 and agents; the seed's FC is page-based)
//   fixed-wait   the store read once, 3 s after the return (WorkArena's validate-after-a-wait pattern)
//   network      some write of the family was answered 2xx or 3xx (the common network rule; WebArena-
//                Verified's NetworkEventEvaluator checks this, with the write's URL and post data)
//   webarena-verified  WebArena-Verified 1.2.3's own evaluator, unchanged, on the trace's HAR and claim:
//                its verdicts are recorded once, under a frozen amendment, in data/raw/evaluators/
//                webarena-verified/<run_id>.jsonl (make rescore ARGS="--webarena-verified --register"),
//                since it needs its own venv; each names its trace by run file, sha256 and line
// A false accept: the evaluator credits the task and the store lacks the state; a false reject: it
// does not, and the store has it. Rates with Wilson intervals over the traces the store denies (false
// accepts) and holds (false rejects). An evaluator that cannot say for a trace (no HAR, no claim, no
// later read) leaves that trace out of its row.
//
// Beside the table, one row per re-scored trace (evaluator_audit_traces): the trace by run file and
// line, its group (browser, arm, version, app, fault), the store's verdict and each evaluator's
// (true, false, or null where it cannot say). It is what the table counts, written out so that the
// report (report-src/, which reads generated files and imports no analysis/) can recount every cell
// and link it to its traces.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../core/paths.ts';
import { listFiles } from '../core/files.ts';
import { readJsonlLines } from '../core/jsonl.ts';
import type { EvaluatorVerdict } from '../core/contracts.ts';
import { rescoreFiles, rescoreRuns, type RescoreResult, type Rescored } from './rescore.ts';
import type { TableRow } from './tables.ts';

const EVALUATORS: readonly [string, (r: Rescored) => boolean | null][] = [
  ['store', (r) => r.vts],
  ['page', (r) => r.apparent_success],
  ['claim', (r) => r.claim_done],
  ['fixed-wait', (r) => r.fixed_wait_accept],
  ['network', (r) => r.network_accept],
  ['webarena-verified', (r) => r.webarena_verified_accept],
];

/**
 * The amendment under which WebArena-Verified's verdicts on an arm's run files are registered (make
 * rescore --register), frozen before the first: one per arm, since each arm's prereg names what it
 * records. A run file of an arm not listed here is scored but never registered.
 */
export const VERDICTS_AMENDMENTS: Readonly<Record<string, string>> = {
  'real-apps': 'prereg/layers-real-apps-amendment-2.md',
  transport: 'prereg/layers-transport-amendment-3.md',
};

/** The amendment that registers verdicts on a run file (data/raw/layers/<arm>/<run_id>.jsonl), or null for an arm with none. */
export function verdictsAmendment(runFile: string): string | null {
  const arm = runFile.split(/[\\/]/).at(-2) ?? '';
  return VERDICTS_AMENDMENTS[arm] ?? null;
}

/** A recorded verdict and the file it came from. */
export interface RecordedVerdict { verdict: EvaluatorVerdict; file: string; line: number }

/** Every recorded verdict of other evaluators under a data root's data/raw (data/raw/evaluators/<evaluator>/*.jsonl). */
export function readVerdicts(rawDir = paths.raw()): RecordedVerdict[] {
  const dir = path.join(rawDir, 'evaluators');
  if (!fs.existsSync(dir)) return [];
  return listFiles(dir).filter((f) => f.endsWith('.jsonl')).sort()
    .flatMap((f) => readJsonlLines<EvaluatorVerdict>(f, { schema: 'evaluator-verdict' }).map((l) => ({ verdict: l.value, file: rel(f), line: l.line })));
}

/**
 * Sets each recorded verdict on the re-scored trace it names (run file and line; its condition and
 * policy must match). Returns the problems: a verdict whose run file changed since it was scored, one
 * that names no re-scored trace, or a trace with two verdicts of one evaluator.
 */
export function attachVerdicts(result: Pick<RescoreResult, 'rows' | 'runSha256'>, verdicts: readonly RecordedVerdict[]): string[] {
  const byTrace = new Map(result.rows.map((r) => [`${r.file}#${r.line}`, r]));
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { verdict: v, file, line } of verdicts) {
    const where = `${file}:${line}`;
    const key = `${v.run_file}#${v.line}`;
    const sha = result.runSha256.get(v.run_file);
    if (sha === undefined) { problems.push(`${where}: names ${v.run_file}, which is not a re-scored run file`); continue; }
    if (sha !== v.run_sha256) { problems.push(`${where}: ${v.run_file} has changed since ${v.evaluator} scored it (its sha256 differs)`); continue; }
    const trace = byTrace.get(key);
    if (!trace || trace.condition_id !== v.condition_id || trace.policy !== v.policy) { problems.push(`${where}: names line ${v.line} of ${v.run_file} as ${v.condition_id} ${v.policy}, which that line is not`); continue; }
    if (seen.has(`${v.evaluator}#${key}`)) { problems.push(`${where}: a second ${v.evaluator} verdict on ${v.run_file} line ${v.line}`); continue; }
    seen.add(`${v.evaluator}#${key}`);
    trace.webarena_verified_accept = v.accept;
  }
  return problems;
}

/** The evaluators' names, in the table's order (the store first: it is the truth, and counted as one). */
export const auditEvaluators: readonly string[] = EVALUATORS.map(([name]) => name);

/** The fault a trace ran under: its layer, or its transport fault (with the layer beneath it when there is one). */
const faultOf = (r: Rescored) => (r.transport === null ? r.layer : r.layer === 'baseline' ? r.transport : `${r.layer}+${r.transport}`);
const LAYER_ORDER = ['all', 'baseline', 'access', 'perception', 'action', 'state', 'verification'];
const faultRank = (f: string) => (LAYER_ORDER.includes(f) ? LAYER_ORDER.indexOf(f) : LAYER_ORDER.length);

/** The audit table from re-scored traces (pure): per browser, arm and version, application, fault and evaluator, and every fault together ('all'). */
export function auditRows(rescored: readonly Rescored[]): TableRow[] {
  const groups = new Map<string, { key: [string, string, number, string, string, string]; items: Rescored[] }>();
  for (const r of rescored) {
    for (const fault of [faultOf(r), 'all']) {
      for (const [evaluator] of EVALUATORS) {
        const key: [string, string, number, string, string, string] = [r.browser, r.arm, r.arm_version, r.app, fault, evaluator];
        const id = JSON.stringify(key);
        let g = groups.get(id);
        if (!g) groups.set(id, (g = { key, items: [] }));
        g.items.push(r);
      }
    }
  }
  const evaluatorRank = (e: string) => EVALUATORS.findIndex(([name]) => name === e);
  const rows: TableRow[] = [];
  for (const { key: [browser, arm, version, app, fault, evaluator], items } of groups.values()) {
    const accept = EVALUATORS[evaluatorRank(evaluator)]![1];
    const said = items.filter((r) => accept(r) !== null);
    if (!said.length) continue;
    const stored = said.filter((r) => r.vts);
    const notStored = said.filter((r) => !r.vts);
    rows.push({
      browser, arm, arm_version: version, app, fault, evaluator,
      n: said.length,
      stored_n: stored.length,
      not_stored_n: notStored.length,
      accept_n: said.filter((r) => accept(r) === true).length,
      false_accept_n: notStored.filter((r) => accept(r) === true).length,
      false_reject_n: stored.filter((r) => accept(r) === false).length,
    });
  }
  const order = (r: TableRow) => [r.browser, r.arm, r.arm_version, r.app, faultRank(r.fault as string), r.fault, evaluatorRank(r.evaluator as string)] as (string | number)[];
  return rows.sort((a, b) => {
    const x = order(a);
    const y = order(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/**
 * What the audit counts, one row a trace (pure): its run file and line, its group as the table keys it
 * (every fault together, 'all', is the table's sum and has no row here), the store's verdict (stored)
 * and each evaluator's accept under its name (null: it cannot say for this trace), in file and line order.
 */
export function auditTraceRows(rescored: readonly Rescored[]): TableRow[] {
  return rescored
    .map((r): TableRow => ({
      file: r.file, line: r.line, browser: r.browser, arm: r.arm, arm_version: r.arm_version, app: r.app, fault: faultOf(r),
      condition_id: r.condition_id, policy: r.policy, stored: r.vts,
      ...Object.fromEntries(EVALUATORS.map(([name, accept]) => [name, accept(r)])),
    }))
    .sort((a, b) => (a.file === b.file ? (a.line as number) - (b.line as number) : (a.file as string) < (b.file as string) ? -1 : 1));
}

/**
 * The audit of the registered record: every registered run file of the real-application arms whose
 * rows kept files. A file that cannot be re-scored, or a verdict the files do not give again, is a
 * problem the reanalysis reports (make rescore names each).
 */
export function evaluatorAudit(rawDir = paths.raw()): { rows: TableRow[]; traces: TableRow[]; problems: string[] } {
  const result = rescoreRuns(rescoreFiles([rawDir]), rel);
  const verdictProblems = attachVerdicts(result, readVerdicts(rawDir));
  const disagreeing = result.rows.filter((r) => r.disagrees.length);
  return {
    rows: auditRows(result.rows),
    traces: auditTraceRows(result.rows),
    problems: [
      ...result.problems.map((p) => `evaluator_audit: ${p}`),
      ...verdictProblems.map((p) => `evaluator_audit: ${p}`),
      ...disagreeing.map((r) => `evaluator_audit: ${r.file} ${r.condition_id} ${r.policy}: the files give another ${r.disagrees.join(', ')} than the row (make rescore)`),
    ],
  };
}
