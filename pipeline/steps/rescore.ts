// make rescore: every real-application verdict again from the files each trace kept beside its row
// (analysis/rescore.ts), with no browser, application or proxy running; it must agree with the rows.
// Reads: data/raw/layers/{real-apps,transport,agent}/*.jsonl and their .files/ (with --excluded,
// data/excluded/ too: smoke runs). Writes: nothing, except with --webarena-verified --register: that
// evaluator's verdicts on each registered run file that has none yet, data/raw/evaluators/webarena-verified/
// <run_id>.jsonl, under a frozen amendment. Exit 1 on any disagreement or unreadable file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { CheckError, GateError, RStackError, UsageError } from '../../core/errors.ts';
import { runCommand } from '../../core/command.ts';
import { familyCondition, readFamily, type RealApp } from '../../fixtures/real-app.ts';
import { evaluatorsPython, evaluatorsVenvCurrent, webarenaVerifiedScore } from '../evaluators/install.ts';
import { paths, rel } from '../../core/paths.ts';
import { wilson } from '../../core/stats.ts';
import { rescoreFiles, rescoreRuns, type EvaluatorInput, type RescoreResult, type Rescored } from '../../analysis/rescore.ts';
import { attachVerdicts, readVerdicts, VERDICTS_AMENDMENT } from '../../analysis/evaluator-audit.ts';
import { gate } from '../kernel/gate.ts';
import { codeState } from '../kernel/run-log.ts';
import { writeDurable } from '../kernel/files.ts';
import { updateDataManifest } from '../kernel/manifest.ts';
import { toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import type { EvaluatorVerdict } from '../../core/contracts.ts';

/** One line of WebArena-Verified's adapter's output (evaluators/webarena-verified/score.py). */
interface AdapterVerdict {
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
async function webarenaVerified(inputs: EvaluatorInput[]): Promise<AdapterVerdict[]> {
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
 * the gate, the amendment frozen, a clean tree; a run file already scored keeps its verdicts (append-only).
 */
/** Before anything is scored: the gate, the amendment frozen in its head, a clean tree (a registered step fails closed, as a run does). */
async function registrationAllowed(): Promise<{ ledgerHead: string; commit: string; load: number[]; scoredAt: string }> {
  const gated = await gate();
  if (!gated.entry.files[VERDICTS_AMENDMENT]) throw new GateError(`rescore --register: ${VERDICTS_AMENDMENT} is not frozen in the ledger head (entry ${gated.entry.seq}): its verdicts are registered only under it; make freeze first`);
  const code = codeState();
  if (!code.commit || code.dirty) throw new RStackError('rescore --register: the tracked code differs from its commit (or there is no commit): a registered step records the commit it ran at; commit first', { exitCode: 2 });
  return { ledgerHead: gated.ledgerHead, commit: code.commit, load: os.loadavg().map((x) => Math.round(x * 100) / 100), scoredAt: new Date().toISOString() };
}

async function registerVerdicts(result: RescoreResult, verdicts: AdapterVerdict[], allowed: Awaited<ReturnType<typeof registrationAllowed>>): Promise<string[]> {
  const { ledgerHead, commit, load, scoredAt } = allowed;
  const dir = paths.evaluatorVerdicts('webarena-verified');
  const written: string[] = [];
  for (const [runFile, runSha256] of result.runSha256) {
    const target = path.join(dir, path.basename(runFile));
    if (fs.existsSync(target)) continue;
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
    written.push(`${rel(target)}: ${lines.length} verdicts on ${runFile}`);
  }
  if (written.length) await updateDataManifest();
  return written;
}

const pct = (k: number, n: number) => {
  if (!n) return '-';
  const { low, high } = wilson(k, n);
  return `${k}/${n} ${(100 * k / n).toFixed(1)}% [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;
};

/** Per evaluator: how often it credits a "done" the store denies (false accept) and denies one the store holds (false reject). */
function evaluatorLines(rows: Rescored[]): string[] {
  const evaluators: [string, (r: Rescored) => boolean | null][] = [
    ['the page (AS)', (r) => r.apparent_success],
    ['fixed wait, 3 s after the return', (r) => r.fixed_wait_accept],
    ['network only (the write got 2xx/3xx)', (r) => r.network_accept],
    ['WebArena-Verified 1.2.3 (HAR and claim)', (r) => r.webarena_verified_accept],
  ];
  return evaluators.map(([name, accept]) => {
    const scored = rows.filter((r) => accept(r) !== null);
    const notStored = scored.filter((r) => !r.vts);
    const stored = scored.filter((r) => r.vts);
    return `  ${name.padEnd(40)} false accepts ${pct(notStored.filter((r) => accept(r)).length, notStored.length).padEnd(32)} false rejects ${pct(stored.filter((r) => !accept(r)).length, stored.length)}`;
  });
}

await main({
  name: 'make rescore',
  summary: "re-score every real-application trace from the files it kept beside its row (the store's reads, the proxy's HAR), with nothing running: VTS, AS and false completion must equal the row's; prints what a fixed-wait validator and a network-only rule would have said",
  usage: 'make rescore [ARGS="--excluded --webarena-verified --register"]',
  options: {
    excluded: { type: 'boolean', default: false, help: 'also the run files in data/excluded/ (smoke runs, superseded attempts)' },
    'webarena-verified': { type: 'boolean', default: false, help: "also WebArena-Verified 1.2.3's own evaluator on each trace's HAR and claim (make evaluators first; evaluators/README.md); where its verdicts are registered, the two must agree" },
    register: { type: 'boolean', default: false, help: `with --webarena-verified: write its verdicts on every registered run file that has none yet to data/raw/evaluators/webarena-verified/<run_id>.jsonl (needs ${VERDICTS_AMENDMENT} frozen and a clean tree; a registered step: an idle machine)` },
  },
  async run(values) {
    const started = performance.now();
    const files = rescoreFiles([paths.raw(), ...(values.excluded ? [paths.excluded()] : [])]);
    if (values.register && (!values['webarena-verified'] || values.excluded)) throw new UsageError('rescore: --register goes with --webarena-verified, on the registered runs only (not --excluded)');
    const allowed = values.register ? await registrationAllowed() : null;
    const result = rescoreRuns(files, rel);
    const recorded = attachVerdicts(result, values.excluded ? [] : readVerdicts());
    const bad = [...recorded];
    const recordedAccept = new Map(result.rows.map((r) => [r, r.webarena_verified_accept]));
    let verdicts: AdapterVerdict[] = [];
    if (values['webarena-verified']) {
      verdicts = await webarenaVerified(result.inputs);
      // the live verdict replaces the recorded one in the lines below; the two must agree
      result.inputs.forEach((input, i) => {
        const trace = result.rows[input.index]!;
        const live = verdicts[i]!.score === 1;
        const before = recordedAccept.get(trace);
        if (before !== null && before !== undefined && before !== live) bad.push(`${trace.file} line ${trace.line} (${trace.condition_id} ${trace.policy}): WebArena-Verified now says ${live ? 'accept' : 'reject'}, its registered verdict says ${before ? 'accept' : 'reject'}`);
        trace.webarena_verified_accept = live;
      });
    }
    const disagreeing = result.rows.filter((r) => r.disagrees.length);
    bad.push(
      ...result.problems,
      ...disagreeing.map((r) => `${r.file} ${r.condition_id} ${r.policy}: the files give another ${r.disagrees.join(', ')} than the row`),
    );
    if (values.register && bad.length) throw new CheckError(`rescore --register: nothing registered; ${bad.length} problem${bad.length === 1 ? '' : 's'} first:\n${bad.slice(0, 50).join('\n')}`);
    const registered = allowed ? await registerVerdicts(result, verdicts, allowed) : [];
    const seconds = (performance.now() - started) / 1000;
    const withRecorded = [...recordedAccept.values()].filter((a) => a !== null && a !== undefined).length;
    const lines = [
      `rescore: ${result.rows.length} traces of ${result.runs} run files re-scored from their files in ${seconds.toFixed(1)} s (${(result.bytes / 1e6).toFixed(2)} MB of files${result.rows.length ? `, ${(result.bytes / result.rows.length / 1e3).toFixed(1)} kB a trace` : ''})`,
      `  agree with their rows: ${result.rows.length - disagreeing.length} of ${result.rows.length}`,
      ...(withRecorded ? [`  with WebArena-Verified's registered verdict: ${withRecorded}${values['webarena-verified'] ? ' (the live verdicts beside them: disagreements are problems below)' : ' (shown below; --webarena-verified scores them again)'}`] : []),
      ...(result.rows.length ? ['against the store at the boundary:', ...evaluatorLines(result.rows)] : []),
      ...(values.register ? [registered.length ? `registered (${VERDICTS_AMENDMENT}):` : 'registered: nothing new (every run file re-scored has its verdicts already)', ...registered.map((l) => `  ${l}`)] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (bad.length) throw new CheckError(`rescore: ${bad.length} problem${bad.length === 1 ? '' : 's'}:\n${bad.slice(0, 50).join('\n')}${bad.length > 50 ? `\n… and ${bad.length - 50} more` : ''}`);
  },
});
