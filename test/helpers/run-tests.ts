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
import fs from 'node:fs';
import path from 'node:path';
import { testFiles } from './files.ts';
import { turnTimes } from './turns.ts';

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
// each file's time, the slowest printed after the summary, so a run's log says where make test's
// minutes go: how long it held its turn (hooks and its process's start included; each file's
// process appends it, test/helpers/take-turn.mjs), and the wall time the files that run alone add up
// to, which no concurrency shortens
const times = turnTimes(process.pid);
fs.rmSync(times, { force: true });
const out = stream.compose(new spec());
out.pipe(process.stdout, { end: false });
out.on('end', () => {
  const held = fs.existsSync(times) ? fs.readFileSync(times, 'utf8').split('\n').filter(Boolean).map((line) => {
    const [file, kind, from, to] = line.split('\t');
    return { file: path.relative(process.cwd(), file!), alone: kind === 'alone', s: (Number(to) - Number(from)) / 1000 };
  }) : [];
  fs.rmSync(times, { force: true });
  const sum = (alone: boolean) => held.filter((h) => h.alone === alone).reduce((a, h) => a + h.s, 0);
  const slowest = held.sort((a, b) => b.s - a.s).slice(0, 25);
  process.stdout.write(`\nslowest files (the time each held its turn, s; A runs alone, S shares the machine):\n${slowest.map((h) => `  ${h.s.toFixed(1).padStart(7)}  ${h.alone ? 'A' : 'S'}  ${h.file}`).join('\n')}\n` +
    `files alone: ${held.filter((h) => h.alone).length}, ${sum(true).toFixed(0)} s of wall time; files sharing: ${held.filter((h) => !h.alone).length}, ${sum(false).toFixed(0)} s of turns (up to ${values.concurrency} at once)\n`);
  if (failed.length) process.stdout.write(`\nfailed (${failed.length}):\n${failed.map((f) => `  ${f}`).join('\n')}\n`);
});
