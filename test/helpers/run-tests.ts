// make test's runner: Node's own test runner (node:test's run(), with its spec reporter and its
// summary), on every test file in the order test/helpers/files.ts gives (the files that share the
// machine first, then those that run alone), CONCURRENCY files at a time. `node --test` would sort
// the files by path, which interleaves the two kinds, and a sharing file waiting behind an alone
// one would overlap nothing. Each file waits for its turn (test/helpers/take-turn.mjs, given to
// this process with --import, which run() hands on to every file's process).
//
//   node --import tsx --import <abs>/test/helpers/take-turn.mjs test/helpers/run-tests.ts [--concurrency N] [files…]
//
// Exit code: 1 when a test failed (or a file could not run), else 0.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { parseArgs } from 'node:util';
import { testFiles } from './files.ts';

const { values, positionals } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
if (values.help) {
  process.stdout.write('usage: node --import tsx --import <abs>/test/helpers/take-turn.mjs test/helpers/run-tests.ts [--concurrency N] [test files…]\n  every *.test.ts under test/ when no file is given; sharing files first, then those that run alone\n');
  process.exit(0);
}
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`--concurrency takes a whole number of files at a time (1 or more), not ${JSON.stringify(values.concurrency)}\n`);
  process.exit(2);
}
const files = positionals.length ? positionals : testFiles('test');
const stream = run({ files, concurrency });
// the failed tests, named again as the very last lines with the start of their error: a log cut to its
// tail (CI keeps only the end) still says which test failed, in which file, and why
const failed: string[] = [];
stream.on('test:fail', (event) => {
  if (event.todo) return;
  process.exitCode = 1;
  // with the first lines of why (an assertion's message), for a parent whose subtests failed only its name
  const error = event.details.error as (Error & { cause?: unknown; failureType?: string }) | undefined;
  const cause = error?.cause instanceof Error ? error.cause : error;
  const why = error?.failureType === 'subtestsFailed' || !cause ? '' : `\n      ${String(cause.message ?? cause).split('\n').filter((l) => l.trim()).slice(0, 4).join('\n      ').slice(0, 600)}`;
  failed.push(`${(event.file ?? '?').replace(process.cwd() + '/', '')}: ${event.name}${why}`);
});
// each file's time (its top-level tests' durations summed), the slowest printed after the summary, so
// a run's log says where make test's minutes go
const perFile = new Map<string, number>();
stream.on('test:pass', (event) => tally(event));
stream.on('test:fail', (event) => tally(event));
function tally(event: { nesting: number; file?: string; details: { duration_ms: number } }) {
  if (event.nesting !== 0 || !event.file) return;
  perFile.set(event.file, (perFile.get(event.file) ?? 0) + event.details.duration_ms);
}
const out = stream.compose(new spec());
out.pipe(process.stdout, { end: false });
out.on('end', () => {
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 25);
  process.stdout.write(`\nslowest files (their tests' time, s):\n${slowest.map(([f, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)}  ${f.replace(process.cwd() + '/', '')}`).join('\n')}\n`);
  if (failed.length) process.stdout.write(`\nfailed (${failed.length}):\n${failed.map((f) => `  ${f}`).join('\n')}\n`);
});
