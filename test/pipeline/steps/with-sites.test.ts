// rstackbench with-sites as a command: the command's exit code becomes its own; the sites it
// started are stopped when the command ends, also when it is interrupted (SIGTERM) mid-command.
// The WordPress site runs on a port and state folder of this test's own.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { processName, readPid } from '../../../core/service.ts';
import { stopSite, wordpressSite } from '../../../fixtures/wordpress/site.ts';
import { run, start } from '../../helpers/run.ts';

const script = path.join(codeRoot, 'pipeline/steps/with-sites.ts');
const withSites = (args: string[], env: Record<string, string> = {}) => start(process.execPath, ['--import', 'tsx', script, ...args], { cwd: codeRoot, env });

const port = 8485;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-with-sites-'));
fs.chmodSync(state, 0o755);
const env = { PRODUCTION_SITE_PORT: String(port), PRODUCTION_SITE_STATE: state };
const site = wordpressSite({ port, state });
after(async () => {
  await stopSite(site);
  fs.rmSync(state, { recursive: true, force: true });
});

test('the command\'s exit code is its own; no command, or one it cannot find, is an error', async () => {
  assert.equal((await withSites(['--', process.execPath, '-e', 'process.exit(3)']).ended).exitCode, 3);
  const none = await withSites([]).ended;
  assert.equal(none.exitCode, 2);
  assert.match(none.stderr, /no command/);
  const missing = await withSites(['--', 'no-such-program-rstack']).ended;
  assert.equal(missing.exitCode, 1);
  assert.match(missing.stderr, /no-such-program-rstack: not found/);
});

test('--beside: the command runs only after the check passed; a failed check is the exit code and the command never starts', async () => {
  const marker = path.join(state, 'beside-command-ran');
  const checkMarker = path.join(state, 'beside-check-ran');
  const command = ['--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`];
  const failed = await withSites(['--beside', `echo checked > ${checkMarker}; exit 4`, ...command]).ended;
  assert.equal(failed.exitCode, 4, failed.stderr);
  assert.equal(fs.readFileSync(checkMarker, 'utf8'), 'checked\n', 'the check ran');
  assert.equal(fs.existsSync(marker), false, 'the command did not run after a failed check');
  assert.match(failed.stderr, /exited 4; .* is not run/);
  const passed = await withSites(['--beside', 'true', ...command]).ended;
  assert.equal(passed.exitCode, 0, passed.stderr);
  assert.equal(fs.readFileSync(marker, 'utf8'), 'ran');
});

test('interrupted mid-command (SIGTERM): the command ends, the site started for it is stopped, nothing is left running', async () => {
  const marker = path.join(state, 'command-started');
  // the command says where the site is, then waits to be interrupted
  const { child, ended } = withSites(['--sites', 'wordpress', '--', process.execPath, '-e',
    `require('fs').writeFileSync(${JSON.stringify(marker)}, process.env.PRODUCTION_SITE_ORIGIN); setInterval(() => {}, 1000)`], env);
  while (!fs.existsSync(marker) && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
  assert.equal(fs.readFileSync(marker, 'utf8'), `http://127.0.0.1:${port}`, 'the command sees the origin');
  const pids = [readPid(site.apache.pidFile)!, readPid(site.mariadb.pidFile)!];
  assert.ok(pids.every((p) => processName(p) !== null), 'the site runs while the command does');
  child.kill('SIGTERM');
  const result = await ended;
  assert.equal(result.exitCode, 143, result.stderr);
  assert.match(result.stderr, /stopped apache2[\s\S]*stopped mariadbd/);
  for (const pid of pids) assert.equal(processName(pid), null, `pid ${pid} still runs`);
  assert.equal(fs.existsSync(site.wpConfig), false);
});

test('the set-up make test runs is this command, with both sites, the examples, Slurm and the type check beside them, then the turns and the runner', async () => {
  const makefile = fs.readFileSync(path.join(codeRoot, 'Makefile'), 'utf8');
  assert.match(makefile, /^test: .*\n\t@\$\(RSTACKBENCH\) with-sites --examples --slurm --sites wordpress,wordpress-editor --beside "\$\(TYPECHECK\)" -- \$\(TSX\) --import "\$\(CURDIR\)\/test\/helpers\/take-turn\.mjs" test\/helpers\/run-tests\.ts --concurrency \$\(TEST_CONCURRENCY\)$/m);
  const plan = await run('make', ['-n', '--no-print-directory', 'test'], { cwd: codeRoot });
  const turns = path.join(codeRoot, 'test/helpers/take-turn.mjs').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(plan.stdout, new RegExp(`bin/rstackbench with-sites --examples --slurm --sites wordpress,wordpress-editor --beside "npx tsc -p \\." -- node --import tsx --import "${turns}" test/helpers/run-tests\\.ts --concurrency 2$`, 'm'));
});
