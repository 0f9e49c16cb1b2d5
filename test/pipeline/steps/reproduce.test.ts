// shares the machine: it asserts exit codes, files and what commands print, never an outcome that depends on speed.
// `make reproduce` on a clean copy of a complete record, as an artifact reviewer runs it: every arm
// is complete, so it writes no row, and it must leave the record and every generated file as they
// were — `git status --porcelain` empty, data/runs.jsonl and the provenance tables byte-identical.
// The copy is of the working tree's tracked files (so it tests the code as it stands), committed in
// a repository of its own; node_modules is the checkout's, hard-linked file by file (so that an npm ci
// in the copy could never empty the checkout's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { codeRoot } from '../../../core/paths.ts';
import { run } from '../../helpers/run.ts';

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 << 20 });

/** A repository holding the working tree's tracked files, committed, with the checkout's node_modules hard-linked. */
function cleanCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-reproduce-'));
  const tracked = git(codeRoot, ['ls-files', '-z']).split('\0').filter((f) => f && fs.existsSync(path.join(codeRoot, f)));
  for (const f of tracked) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(codeRoot, f), path.join(dir, f));
    fs.chmodSync(path.join(dir, f), fs.statSync(path.join(codeRoot, f)).mode);
  }
  execFileSync('cp', ['-al', path.join(codeRoot, 'node_modules'), path.join(dir, 'node_modules')]);
  // the lockfile as old as the checkout's, which node_modules was installed from: setup sees nothing to install
  const lock = fs.statSync(path.join(codeRoot, 'package-lock.json'));
  fs.utimesSync(path.join(dir, 'package-lock.json'), lock.atime, lock.mtime);
  git(dir, ['init', '-q']);
  git(dir, ['add', '-A']);
  git(dir, ['-c', 'user.name=test', '-c', 'user.email=test@invalid', 'commit', '-q', '-m', 'the record as committed']);
  return dir;
}

test('make reproduce ARM_B=0 on a clean copy of the complete record leaves git status empty and the provenance as it was', { timeout: 30 * 60_000 }, async (t) => {
  const dir = cleanCopy();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const runLog = fs.readFileSync(path.join(dir, 'data', 'runs.jsonl'), 'utf8');
  const deviations = fs.readFileSync(path.join(dir, 'analysis', 'out', 'deviations_runs.csv'), 'utf8');
  const r = await run('make', ['--no-print-directory', 'reproduce', 'ARM_B=0'], { cwd: dir, env: { RSTACK_ROOT: '', RSTACK_SCRATCH: '' } });
  assert.equal(r.exitCode, 0, r.stderr.slice(-3000));
  assert.match(r.stdout + r.stderr, /OK \(\d+ checks\)/);
  assert.equal(git(dir, ['status', '--porcelain']), '', 'every tracked file byte-identical, nothing new');
  assert.equal(fs.readFileSync(path.join(dir, 'data', 'runs.jsonl'), 'utf8'), runLog);
  assert.equal(fs.readFileSync(path.join(dir, 'analysis', 'out', 'deviations_runs.csv'), 'utf8'), deviations);
  assert.doesNotMatch(r.stderr, /Next: make reanalyze/, 'reproduce runs the next steps itself: no step tells the user to');
  assert.match(r.stderr, /nothing to run, nothing recorded/, 'each complete arm says so');
  assert.doesNotMatch(r.stderr, /setup: npm ci/, 'node_modules was complete: setup installed nothing');
});
