// shares the machine: its own nested runner starts one tiny file that fails at once.
// make test's runner (test/helpers/run-tests.ts) ends its log with the failed tests, their files
// and the start of each one's error, so that a log cut to its tail (CI keeps only the end) says
// which test failed and why; a parent whose subtests failed is named without an error of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';

test('the last lines of a failing run name each failed test, its file and the first lines of its error', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-run-tests-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'fails.test.mjs');
  fs.writeFileSync(file, `${'// shares the machine: a fake that fails at once'}
import { test } from 'node:test';
import assert from 'node:assert/strict';
test('one is two', () => { assert.equal(1, 2, 'one is not two'); });
test('parent', async (t) => { await t.test('child', () => { throw new Error('the child broke\\nits second line'); }); });
test('passes', () => {});
`);
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', path.join(codeRoot, 'test/helpers/take-turn.mjs'), path.join(codeRoot, 'test/helpers/run-tests.ts'), file], { cwd: codeRoot, env, encoding: 'utf8' });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  const tail = r.stdout.slice(r.stdout.lastIndexOf('\nfailed ('));
  const shown = file.replace(codeRoot + '/', '');
  assert.equal(tail.trim(), [
    'failed (3):',
    `  ${shown}: one is two`,
    '      one is not two',
    '      1 !== 2',
    `  ${shown}: child`,
    '      the child broke',
    '      its second line',
    `  ${shown}: parent`,
  ].join('\n'));
});
