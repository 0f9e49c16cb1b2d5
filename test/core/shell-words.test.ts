// shellWords splits ARGS as /bin/sh would: each case is checked against the real shell (globbing
// off), except that $ is never expanded, which the shell would do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { shellWords } from '../../core/shell-words.ts';

/** the words /bin/sh makes of a line, without globbing */
const shSplit = (line: string) => execFileSync('/bin/sh', ['-fc', `printf '%s\\0' ${line}`], { encoding: 'utf8' }).split('\0').slice(0, -1);

const lines = [
  `--smoke --only '^cards-(baseline|state)-01'`,
  `--smoke   --only "(a|b)" --agent-name 'my agent'`,
  `--reason "it's \\"quoted\\" here" --x a\\ b`,
  `--only ^cards-baseline-01 --agent-timeout-ms 90000`,
  `''  ""  'a'"b"c`,
  `--redo "why: a back\\\\slash" tab\there`,
];

test('spaces, quotes, (, |, backslashes: the words the shell makes', () => {
  for (const line of lines) assert.deepEqual(shellWords(line), shSplit(line), line);
});

test('$ and a glob stay as written (the shell would expand them)', () => {
  assert.deepEqual(shellWords(`--only '^cards-baseline-01$' --x "$HOME" *`), ['--only', '^cards-baseline-01$', '--x', '$HOME', '*']);
});

test('an unterminated quote is refused, naming it', () => {
  assert.throws(() => shellWords(`--only '(a|b)`), /unterminated '/);
  assert.throws(() => shellWords(`--reason "half`), /unterminated "/);
});
