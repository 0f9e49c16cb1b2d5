// The README's "Score your agent" example, as a user runs it in a fresh clone: its commands, in a
// checkout whose path holds a space, and afterwards `git status --porcelain` is empty (a smoke run
// writes under runs/, git-ignored, never data/ or manifests/). The clone is the working tree's
// files that git does not ignore, committed in a new repository; its node_modules and the example's are this
// checkout's (linked, as npm ci would have made them; git-ignored in a real clone). The example's run
// is narrowed with --only to two conditions, written with the characters a shell would break on
// unquoted: ( | $ and a quoted name with a space. Needs the example installed
// (npm ci --prefix examples/agents/puppeteer; make test does it: with-sites --examples).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { codeRoot } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { run } from '../helpers/run.ts';
import type { LayersRow } from '../../analysis/rows.ts';

const example = 'examples/agents/puppeteer';
const installed = fs.existsSync(path.join(codeRoot, example, 'node_modules', 'puppeteer-core'));

/** the first ```sh block after the README's "### Score your agent" */
function readmeBlock(): string[] {
  const readme = fs.readFileSync(path.join(codeRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Score your agent'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'README.md: a ```sh block under "### Score your agent"');
  return block[1]!.split('\n').map((l) => l.trim()).filter(Boolean);
}

/** a fresh clone of the working tree: the files git does not ignore (times kept, as a checkout's are older than npm ci's stamp), in a new repository */
function cloneInto(dir: string): void {
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: codeRoot, encoding: 'utf8', maxBuffer: 256 << 20 }).split('\0').filter(Boolean);
  for (const f of tracked) {
    const from = path.join(codeRoot, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.cpSync(from, path.join(dir, f), { preserveTimestamps: true, verbatimSymlinks: true });
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@127.0.0.1', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'clone');
}

test("the README's Score your agent example, from a fresh clone in a path with a space: rows under runs/, the clone's git status clean", { timeout: 10 * 60_000 }, async (t) => {
  assert.ok(installed, `${example} is not installed: npm ci --prefix ${example}`);
  const lines = readmeBlock();
  assert.deepEqual(lines.map((l) => l.split(' ').slice(0, 2).join(' ')), ['npm ci', 'make run-agent'], `the README's commands: ${lines.join(' ; ')}`);
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb clone '));
  // a git process the clone's commands left behind may still write into .git: retry the removal
  t.after(() => fs.rmSync(clone, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));
  cloneInto(clone);
  // npm ci's results, as links (a real clone's are folders, which its .gitignore covers)
  for (const folder of ['node_modules', `${example}/node_modules`]) fs.symlinkSync(path.join(codeRoot, folder), path.join(clone, folder));
  fs.appendFileSync(path.join(clone, '.git', 'info', 'exclude'), `/node_modules\n/${example}/node_modules\n`);

  // (a function, since a replacement string would read $' as one of its own patterns)
  const command = lines[1]!.replace('ARGS="--smoke"', () => `ARGS="--smoke --only '^cards-(baseline|state)-01$' --agent-name 'my puppeteer'"`);
  assert.notEqual(command, lines[1], 'the README runs the example with ARGS="--smoke"');
  const ran = await run('bash', ['-c', command], { cwd: clone });
  assert.equal(ran.exitCode, 0, ran.stderr);
  const folder = path.join(clone, 'runs', 'run-agent-my-puppeteer');
  assert.match(ran.stderr, /not a registered run: .* under runs\/run-agent-my-puppeteer\//);
  assert.match(ran.stderr, /this run's files: runs\/run-agent-my-puppeteer\//);
  const dir = path.join(folder, 'data', 'excluded', 'layers', 'agent');
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const rows = readJsonl<LayersRow>(path.join(dir, file!), { schema: 'trace' });
  // the quoted pattern and the name with a space arrived intact
  assert.deepEqual(rows.map((r) => r.condition_id).sort(), ['cards-baseline-01', 'cards-state-01']);
  for (const r of rows) assert.equal(r.policy, 'my puppeteer');
  assert.equal(rows.find((r) => r.condition_id === 'cards-baseline-01')!.vts, true, 'the example does the baseline task');

  // an entry point behind its main guard runs from the spaced path (it used to exit 0 doing nothing)
  const slice = await run(path.join(clone, 'bin', 'rstackbench'), ['agent-slice', '--seed', '1', '--cards', '1', '--profile', '0', '--modal', '0'], { cwd: clone });
  assert.equal(slice.exitCode, 0, slice.stderr);
  assert.match(slice.stdout, /cards-[a-z]+-\d\d/);

  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone, encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(status, '', `the clone changed:\n${status}`);
});
