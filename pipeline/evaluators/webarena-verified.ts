// WebArena-Verified's own evaluator on this project's traces (issue 51): its adapter
// (evaluators/webarena-verified/score.py, the package unchanged, in evaluators/.venv) run over each
// trace's kept HAR and claim, and, as a registered step under its amendment, its verdicts written as
// rows: data/raw/evaluators/webarena-verified/<run_id>.jsonl (schemas/evaluator-verdict.schema.json).
// make rescore (pipeline/steps/rescore.ts) is its command; analysis/evaluator-audit.ts reads the rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GateError, RStackError } from '../../core/errors.ts';
import { runCommand } from '../../core/command.ts';
import { familyCondition, readFamily, type RealApp } from '../../fixtures/real-app.ts';
import { paths, rel } from '../../core/paths.ts';
import { toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import type { EvaluatorVerdict } from '../../core/contracts.ts';
import type { EvaluatorInput, RescoreResult } from '../../analysis/rescore.ts';
import { VERDICTS_AMENDMENTS, verdictsAmendment } from '../../analysis/evaluator-audit.ts';
import { gate } from '../kernel/gate.ts';
import { codeState } from '../kernel/run-log.ts';
import { writeDurable } from '../kernel/files.ts';
import { updateDataManifest } from '../kernel/manifest.ts';
import { evaluatorsPython, evaluatorsVenvCurrent, webarenaVerifiedScore } from './install.ts';

/** One line of WebArena-Verified's adapter's output (evaluators/webarena-verified/score.py). */
export interface AdapterVerdict {
  trace_id: string;
  task_id: number;
  score: number | null;
  status: string;
  error_msg: string | null;
  evaluators: { evaluator_name: string; status: string; score: number | null; assertions: { assertion_name: string; status: string }[] | null }[];
  webarena_verified_version: string;
  webarena_verified_evaluator_checksum: string;
  webarena_verified_data_checksum: string;
}

/**
 * WebArena-Verified's own evaluator (evaluators/webarena-verified/score.py, unchanged package) on each
 * trace's HAR and claim, one verdict per input, in input order. The HAR is the proxy's, so Firefox's
 * traces carry their request bodies too.
 */
export async function webarenaVerified(inputs: EvaluatorInput[]): Promise<AdapterVerdict[]> {
  if (!inputs.length) return [];
  if (!evaluatorsVenvCurrent()) throw new RStackError('rescore --webarena-verified: evaluators/.venv is missing or not current: make evaluators first', { exitCode: 2 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-rescore-'));
  try {
    const lines = inputs.map((input, i) => {
      const har = JSON.parse(fs.readFileSync(input.harPath, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
      const first = har.log.entries[0];
      return JSON.stringify({
        trace_id: String(i),
        family: familyCondition(readFamily(input.app as RealApp['name'], input.family), input.variant),
        origin: first ? new URL(first.request.url).origin : 'http://127.0.0.1',
        har_path: input.harPath,
        claim: input.claim,
      });
    });
    const traces = path.join(dir, 'traces.jsonl');
    const out = path.join(dir, 'verdicts.jsonl');
    fs.writeFileSync(traces, `${lines.join('\n')}\n`);
    // a failure throws, with the command's own last lines (core/command.ts)
    await runCommand(evaluatorsPython, [webarenaVerifiedScore, traces, '--out', out, '--work-dir', path.join(dir, 'work')], { hint: 'WebArena-Verified\'s adapter (evaluators/README.md)' });
    const verdicts = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AdapterVerdict);
    if (verdicts.length !== inputs.length || verdicts.some((v, i) => v.trace_id !== String(i))) throw new RStackError(`rescore --webarena-verified: its adapter answered ${verdicts.length} verdicts for ${inputs.length} traces, or out of order`);
    return verdicts;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * make rescore --webarena-verified --register: the verdicts of every registered run file that has none
 * yet, one file each, data/raw/evaluators/webarena-verified/<run_id>.jsonl. A registered step like a run:
 * the gate, its arm's amendment frozen, a clean tree; a run file already scored keeps its verdicts (append-only).
 */
/** Before anything is scored: the gate, an arm's amendment frozen in its head, a clean tree (a registered step fails closed, as a run does). */
export async function registrationAllowed(): Promise<{ ledgerHead: string; commit: string; load: number[]; scoredAt: string; frozen: Set<string> }> {
  const gated = await gate();
  const frozen = new Set(Object.values(VERDICTS_AMENDMENTS).filter((a) => gated.entry.files[a]));
  if (!frozen.size) throw new GateError(`rescore --register: no amendment that registers verdicts (${Object.values(VERDICTS_AMENDMENTS).join(', ')}) is frozen in the ledger head (entry ${gated.entry.seq}); make freeze first`);
  const code = codeState();
  if (!code.commit || code.dirty) throw new RStackError('rescore --register: the tracked code differs from its commit (or there is no commit): a registered step records the commit it ran at; commit first', { exitCode: 2 });
  return { ledgerHead: gated.ledgerHead, commit: code.commit, load: os.loadavg().map((x) => Math.round(x * 100) / 100), scoredAt: new Date().toISOString(), frozen };
}

export async function registerVerdicts(result: RescoreResult, verdicts: AdapterVerdict[], allowed: Awaited<ReturnType<typeof registrationAllowed>>): Promise<{ written: string[]; skipped: string[] }> {
  const { ledgerHead, commit, load, scoredAt, frozen } = allowed;
  const dir = paths.evaluatorVerdicts('webarena-verified');
  const written: string[] = [];
  const skipped: string[] = [];
  for (const [runFile, runSha256] of result.runSha256) {
    const target = path.join(dir, path.basename(runFile));
    if (fs.existsSync(target)) continue;
    const amendment = verdictsAmendment(runFile);
    if (!amendment || !frozen.has(amendment)) {
      if (result.inputs.some((input) => result.rows[input.index]!.file === runFile)) skipped.push(`${runFile}: ${amendment ? `${amendment} is not frozen in the ledger head` : 'its arm has no amendment that registers verdicts'}`);
      continue;
    }
    const lines: string[] = [];
    result.inputs.forEach((input, i) => {
      const trace = result.rows[input.index]!;
      if (trace.file !== runFile) return;
      const v = verdicts[i]!;
      const row: EvaluatorVerdict = {
        schema: 'evaluator-verdict/1', evaluator: 'webarena-verified', evaluator_version: v.webarena_verified_version,
        evaluator_checksum: v.webarena_verified_evaluator_checksum, data_checksum: v.webarena_verified_data_checksum,
        run_file: runFile, run_sha256: runSha256, line: trace.line, condition_id: trace.condition_id, policy: trace.policy,
        task_id: v.task_id, score: v.score, status: v.status, accept: v.score === 1,
        parts: v.evaluators.map((e) => ({ evaluator: e.evaluator_name, status: e.status, score: e.score, failed: (e.assertions ?? []).filter((a) => a.status !== 'success').map((a) => a.assertion_name) })),
        error_msg: v.error_msg, ledger_head: ledgerHead, commit, scored_at: scoredAt, load,
      };
      lines.push(toLine(validate<EvaluatorVerdict>('evaluator-verdict', row, { file: rel(target), line: lines.length + 1 })));
    });
    if (!lines.length) continue;
    fs.mkdirSync(dir, { recursive: true });
    writeDurable(target, lines.join(''));
    written.push(`${rel(target)}: ${lines.length} verdicts on ${runFile} (${amendment})`);
  }
  if (written.length) await updateDataManifest();
  return { written, skipped };
}
