// make rescore: every real-application verdict again from the files each trace kept beside its row
// (analysis/rescore.ts), with no browser, application or proxy running; it must agree with the rows.
// Reads: data/raw/layers/{real-apps,transport,agent}/*.jsonl and their .files/ (with --excluded,
// data/excluded/ too: smoke runs). Writes: nothing. Exit 1 on any disagreement or unreadable file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { CheckError, RStackError } from '../../core/errors.ts';
import { runCommand } from '../../core/command.ts';
import { familyCondition, readFamily, type RealApp } from '../../fixtures/real-app.ts';
import { evaluatorsPython, evaluatorsVenvCurrent, webarenaVerifiedScore } from '../evaluators/install.ts';
import { paths, rel } from '../../core/paths.ts';
import { wilson } from '../../core/stats.ts';
import { rescoreFiles, rescoreRuns, type EvaluatorInput, type Rescored } from '../../analysis/rescore.ts';

/**
 * WebArena-Verified's own evaluator (evaluators/webarena-verified/score.py, unchanged package) on each
 * trace's HAR and claim: its verdict into each row's webarena_verified_accept. The HAR is the proxy's,
 * so Firefox's traces carry their request bodies too.
 */
async function webarenaVerified(rows: Rescored[], inputs: EvaluatorInput[]): Promise<void> {
  if (!inputs.length) return;
  if (!evaluatorsVenvCurrent()) throw new RStackError('rescore --webarena-verified: evaluators/.venv is missing or not current: make evaluators first', { exitCode: 2 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-rescore-'));
  try {
    const lines = inputs.map((input) => {
      const har = JSON.parse(fs.readFileSync(input.harPath, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
      const first = har.log.entries[0];
      return JSON.stringify({
        trace_id: String(input.index),
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
    for (const line of fs.readFileSync(out, 'utf8').split('\n').filter(Boolean)) {
      const verdict = JSON.parse(line) as { trace_id: string; score: number | null };
      rows[Number(verdict.trace_id)]!.webarena_verified_accept = verdict.score === 1;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
  usage: 'make rescore [ARGS="--excluded --webarena-verified"]',
  options: {
    excluded: { type: 'boolean', default: false, help: 'also the run files in data/excluded/ (smoke runs, superseded attempts)' },
    'webarena-verified': { type: 'boolean', default: false, help: "also WebArena-Verified 1.2.3's own evaluator on each trace's HAR and claim (make evaluators first; evaluators/README.md)" },
  },
  async run(values) {
    const started = performance.now();
    const files = rescoreFiles([paths.raw(), ...(values.excluded ? [paths.excluded()] : [])]);
    const result = rescoreRuns(files, rel);
    if (values['webarena-verified']) await webarenaVerified(result.rows, result.inputs);
    const seconds = (performance.now() - started) / 1000;
    const disagreeing = result.rows.filter((r) => r.disagrees.length);
    const lines = [
      `rescore: ${result.rows.length} traces of ${result.runs} run files re-scored from their files in ${seconds.toFixed(1)} s (${(result.bytes / 1e6).toFixed(2)} MB of files${result.rows.length ? `, ${(result.bytes / result.rows.length / 1e3).toFixed(1)} kB a trace` : ''})`,
      `  agree with their rows: ${result.rows.length - disagreeing.length} of ${result.rows.length}`,
      ...(result.rows.length ? ['against the store at the boundary:', ...evaluatorLines(result.rows)] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    const bad = [
      ...result.problems,
      ...disagreeing.map((r) => `${r.file} ${r.condition_id} ${r.policy}: the files give another ${r.disagrees.join(', ')} than the row`),
    ];
    if (bad.length) throw new CheckError(`rescore: ${bad.length} problem${bad.length === 1 ? '' : 's'}:\n${bad.slice(0, 50).join('\n')}${bad.length > 50 ? `\n… and ${bad.length - 50} more` : ''}`);
  },
});
