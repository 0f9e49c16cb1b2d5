// make rescore: every real-application verdict again from the files each trace kept beside its row
// (analysis/rescore.ts), with no browser, application or proxy running; it must agree with the rows.
// Reads: data/raw/layers/{real-apps,transport,agent}/*.jsonl and their .files/ (with --excluded,
// data/excluded/ too: smoke runs). Writes: nothing. Exit 1 on any disagreement or unreadable file.
import { main } from '../../core/cli.ts';
import { CheckError } from '../../core/errors.ts';
import { paths, rel } from '../../core/paths.ts';
import { wilson } from '../../core/stats.ts';
import { rescoreFiles, rescoreRuns, type Rescored } from '../../analysis/rescore.ts';

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
  usage: 'make rescore [ARGS=--excluded]',
  options: { excluded: { type: 'boolean', default: false, help: 'also the run files in data/excluded/ (smoke runs, superseded attempts)' } },
  async run(values) {
    const started = performance.now();
    const files = rescoreFiles([paths.raw(), ...(values.excluded ? [paths.excluded()] : [])]);
    const result = rescoreRuns(files, rel);
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
