// Every real-application verdict again, from what each trace kept beside its row (issue 51) and
// nothing else: no browser, no application, no proxy.
//
//   <run>.jsonl row ──attachments (name, path, sha256)──▶ <run>.files/<unit>/store.json, trace.har
//     store.json  boundary read == target ........................... VTS            (must equal the row's)
//     row         notice shown at or before the boundary ................ AS             (must equal the row's)
//                 AS and not VTS ......................................... FC (page)      (must equal the row's)
//                 claim done and not VTS (version 2) ..................... FC (claim)     (must equal the row's)
//     store.json  the read 3 s after the return == target ............... fixed-wait validator (WorkArena's pattern)
//     trace.har   the write the proxy matched got a 2xx or 3xx ........... network-only rule
//
// A file whose sha256 differs from its row, or that is missing, is a problem of its own (the trace
// cannot be re-scored); a verdict that differs from the row's is a disagreement. Both are listed.
import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../core/hash.ts';
import { storeText as smallValueText } from '../core/store-text.ts';
import { listFiles } from '../core/files.ts';
import { readJsonlLines } from '../core/jsonl.ts';
import type { LayersRow, StoreReads, TraceRow } from '../core/contracts.ts';
import { validate } from '../core/validate.ts';

type Attachment = NonNullable<TraceRow['attachments']>[number];
type Row = LayersRow & TraceRow;

interface HarFile { log: { entries: { _write?: true; request: { method: string; url: string }; response: { status: number; _error?: string } }[] } }

/** One trace re-scored: each verdict from its files, beside the row's. */
export interface Rescored {
  file: string;
  /** the row's line in its run file (1-based): with file, what an outside evaluator's verdict names (data/raw/evaluators/) */
  line: number;
  browser: string;
  arm: string;
  /** the arm's version (real-apps 2: the seed's Verification, claims kept); 1 for rows without one */
  arm_version: number;
  condition_id: string;
  policy: string;
  app: string;
  layer: string;
  transport: string | null;
  vts: boolean;
  apparent_success: boolean;
  false_completion: boolean;
  claim_false_completion: boolean | null;
  /** the policy's or agent's claim (done), where the row kept it (version 2, agents), else null */
  claim_done: boolean | null;
  /** other evaluators' verdicts from the same files: accept (they would credit "done") or null where the files do not say */
  fixed_wait_accept: boolean | null;
  network_accept: boolean | null;
  /** WebArena-Verified's own evaluator on the trace's HAR and claim (make rescore --webarena-verified), or null where it did not run */
  webarena_verified_accept: boolean | null;
  /** the row's verdicts the files do not reproduce */
  disagrees: string[];
}

export interface RescoreResult {
  rows: Rescored[];
  problems: string[];
  runs: number;
  bytes: number;
  inputs: EvaluatorInput[];
  /** each run file re-scored (as rel gives it) and its sha256 when it was read */
  runSha256: Map<string, string>;
}

/** What another evaluator needs of a re-scored trace: where its HAR is, its row's family, variant and claim. */
export interface EvaluatorInput { index: number; harPath: string; app: string; family: string; variant: string; claim: { done: boolean; message?: string } | null }

/** The attachments folder of a run file (pipeline/kernel/trace-writer.ts writes it). */
const filesDir = (runFile: string) => runFile.replace(/\.jsonl$/, '.files');

function readAttachment(runFile: string, a: Attachment, problems: string[], where: string): Buffer | null {
  const file = path.join(filesDir(runFile), a.path);
  if (!fs.existsSync(file)) { problems.push(`${where}: ${a.name} is missing (${file})`); return null; }
  const content = fs.readFileSync(file);
  if (sha256(content) !== a.sha256) { problems.push(`${where}: ${a.name}'s sha256 differs from the row's`); return null; }
  return content;
}

/** Re-scores every row with attachments in the given run files. */
export function rescoreRuns(runFiles: string[], rel: (f: string) => string = (f) => f): RescoreResult {
  const rows: Rescored[] = [];
  const problems: string[] = [];
  const inputs: EvaluatorInput[] = [];
  let runs = 0;
  let bytes = 0;
  const runSha256 = new Map<string, string>();
  for (const runFile of runFiles) {
    const text = fs.readFileSync(runFile);
    const lines = readJsonlLines<Row>(runFile, { schema: 'trace' }).filter((l) => l.value.study === 'layers' && l.value.attachments?.length);
    if (!lines.length) continue;
    runs++;
    runSha256.set(rel(runFile), sha256(text));
    for (const { value: row, line } of lines) {
      const where = `${rel(runFile)} ${row.condition_id} ${row.policy}`;
      const byName = new Map(row.attachments!.map((a) => [a.name, a]));
      bytes += row.attachments!.reduce((sum, a) => sum + a.bytes, 0);
      const storeText = byName.has('store.json') ? readAttachment(runFile, byName.get('store.json')!, problems, where) : null;
      if (!byName.has('store.json')) problems.push(`${where}: no store.json among its attachments`);
      if (!storeText) continue;
      let store: StoreReads;
      try {
        store = validate<StoreReads>('store-reads', JSON.parse(storeText.toString('utf8')), { file: `${where} store.json` });
      } catch (error) {
        problems.push(`${where}: store.json is not a store read (schemas/store-reads.schema.json): ${(error as Error).message.split('\n')[0]}`);
        continue;
      }
      const harText = byName.has('trace.har') ? readAttachment(runFile, byName.get('trace.har')!, problems, where) : null;
      const har = harText ? (JSON.parse(harText.toString('utf8')) as HarFile) : null;

      const vts = store.boundary.value === store.target;
      // when the page showed the success: a real-application row keeps it, a small app's store.json (its row does not)
      const shown = row.real_app ? row.real_app.success_shown ?? null : store.notice?.shown_at_ms ?? null;
      const boundaryAt = row.real_app ? row.real_app.boundary_at : store.boundary.at_ms;
      const apparent = shown !== null && shown <= boundaryAt;
      const falseCompletion = apparent && !vts;
      const claimed = row.arm_version !== undefined ? row.claim?.done === true && !vts : null;
      const later = store.later.find((l) => l.after_return_ms === 3000);
      const writes = har?.log.entries.filter((e) => e._write) ?? [];
      const disagrees = [
        ...(vts !== row.vts ? ['vts'] : []),
        ...(apparent !== row.apparent_success ? ['apparent_success'] : []),
        ...(falseCompletion !== row.false_completion ? ['false_completion'] : []),
        ...(claimed !== null && claimed !== row.claim_false_completion ? ['claim_false_completion'] : []),
        ...(store.target !== (row.real_app ? row.target.value : smallValueText(row.target.value)) ? ['target'] : []),
      ];
      const harAttachment = byName.get('trace.har');
      if (harText && harAttachment && row.app && row.variant) {
        inputs.push({ index: rows.length, harPath: path.join(filesDir(runFile), harAttachment.path), app: row.app, family: row.template, variant: row.variant, claim: row.claim ?? null });
      }
      rows.push({
        file: rel(runFile), line, browser: row.browser.name, arm: row.arm, arm_version: row.arm_version ?? 1, condition_id: row.condition_id, policy: row.policy, app: row.app ?? row.template, layer: row.layer,
        transport: row.transport?.fault ?? null,
        vts, apparent_success: apparent, false_completion: falseCompletion, claim_false_completion: claimed,
        claim_done: row.arm_version !== undefined || row.arm === 'agent' ? row.claim?.done === true : null,
        fixed_wait_accept: later ? later.value === store.target : null,
        network_accept: har ? writes.some((e) => e.response.status >= 200 && e.response.status < 400) : null,
        webarena_verified_accept: null,
        disagrees,
      });
    }
  }
  return { rows, problems, runs, bytes, inputs, runSha256 };
}

/** Run files under the given folders (data/raw, and with excluded data/excluded) of the arms whose traces keep files. */
export function rescoreFiles(dirs: string[]): string[] {
  // a run's failed attempts (<run>.failed-attempts.jsonl) are lines of errors, not trace rows
  return dirs.flatMap((d) => listFiles(d)).filter((f) => f.endsWith('.jsonl') && path.basename(f) !== 'REASONS.jsonl' && !/\.failed-attempts(\.\d+)?\.jsonl$/.test(f) && /[/\\]layers[/\\](real-apps|transport|agent)[/\\]/.test(f)).sort();
}
