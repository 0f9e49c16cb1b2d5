// make rescore: every verdict again from the files each trace kept beside its row (the real-apps and
// transport arms' version 2, the small apps' traces too; analysis/rescore.ts), with no browser, application or proxy running; it must agree with the rows.
// Reads: data/raw/layers/{real-apps,transport,agent}/*.jsonl and their .files/ (with --excluded,
// data/excluded/ too: smoke runs). Writes: nothing, except with --webarena-verified --register: that
// evaluator's verdicts on each registered run file that has none yet, data/raw/evaluators/webarena-verified/
// <run_id>.jsonl, under a frozen amendment. Exit 1 on any disagreement or unreadable file.
import { main } from '../../core/cli.ts';
import { CheckError, UsageError } from '../../core/errors.ts';
import { paths, rel } from '../../core/paths.ts';
import { wilson } from '../../core/stats.ts';
import { rescoreFiles, rescoreRuns, type Rescored } from '../../analysis/rescore.ts';
import { attachVerdicts, readVerdicts, VERDICTS_AMENDMENTS } from '../../analysis/evaluator-audit.ts';
import { registerVerdicts, registrationAllowed, webarenaVerified, type AdapterVerdict } from '../evaluators/webarena-verified.ts';

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
  summary: "re-score every trace that kept its files beside its row (the store's reads, the proxy's HAR: the real-apps and transport arms' version 2, the transport arm's small apps too), with nothing running: VTS, AS, false completion and the claim's must equal the row's; prints what the page, a fixed-wait validator, a network-only rule and WebArena-Verified would have said",
  usage: 'make rescore [ARGS="--excluded --webarena-verified --register"]',
  options: {
    excluded: { type: 'boolean', default: false, help: 'also the run files in data/excluded/ (smoke runs, superseded attempts)' },
    'webarena-verified': { type: 'boolean', default: false, help: "also WebArena-Verified 1.2.3's own evaluator on each trace's HAR and claim (make evaluators first; evaluators/README.md); where its verdicts are registered, the two must agree" },
    register: { type: 'boolean', default: false, help: `with --webarena-verified: write its verdicts on every registered run file that has none yet to data/raw/evaluators/webarena-verified/<run_id>.jsonl (a run file only under its arm's amendment, frozen: ${Object.entries(VERDICTS_AMENDMENTS).map(([arm, a]) => `${arm} ${a}`).join(', ')}; a clean tree; a registered step: an idle machine)` },
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
    const { written: registered, skipped } = allowed ? await registerVerdicts(result, verdicts, allowed) : { written: [], skipped: [] };
    const seconds = (performance.now() - started) / 1000;
    const withRecorded = [...recordedAccept.values()].filter((a) => a !== null && a !== undefined).length;
    const lines = [
      `rescore: ${result.rows.length} traces of ${result.runs} run files re-scored from their files in ${seconds.toFixed(1)} s (${(result.bytes / 1e6).toFixed(2)} MB of files${result.rows.length ? `, ${(result.bytes / result.rows.length / 1e3).toFixed(1)} kB a trace` : ''})`,
      `  agree with their rows: ${result.rows.length - disagreeing.length} of ${result.rows.length}`,
      ...(withRecorded ? [`  with WebArena-Verified's registered verdict: ${withRecorded}${values['webarena-verified'] ? ' (the live verdicts beside them: disagreements are problems below)' : ' (shown below; --webarena-verified scores them again)'}`] : []),
      ...(result.rows.length ? ['against the store at the boundary:', ...evaluatorLines(result.rows)] : []),
      ...(values.register ? [registered.length ? 'registered:' : 'registered: nothing new (every run file re-scored that its amendment covers has its verdicts already)', ...registered.map((l) => `  ${l}`)] : []),
      ...(skipped.length ? ['not registered (scored above, written nowhere):', ...skipped.map((l) => `  ${l}`)] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (bad.length) throw new CheckError(`rescore: ${bad.length} problem${bad.length === 1 ? '' : 's'}:\n${bad.slice(0, 50).join('\n')}${bad.length > 50 ? `\n… and ${bad.length - 50} more` : ''}`);
  },
});
