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
stream.on('test:fail', (event) => {
  if (!event.todo) process.exitCode = 1;
});
stream.compose(new spec()).pipe(process.stdout);
