// A run cancelled mid-way (Slurm's scancel sends SIGTERM to every process of the task: the CLI, the
// run, its browsers; Ctrl-C or kill reach the run alone) on a small registered arm in a throw-away
// tree: one cancelled attempt naming the units it cut short, not a failed attempt per unit; the run
// log's end line and the exit code say 143 (128 + TERM); the same command resumes, every row once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, type Tree } from '../../helpers/tree.ts';
import { run } from '../../helpers/run.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { codeRoot, paths } from '../../../core/paths.ts';
import { unitKey } from '../../../pipeline/layers/arms.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
const args = ['run-layers', '--browser', 'chromium', '--workers', '2'];

/** the first 4 card baselines, frozen: a registered arm of 12 units */
async function smallArm(): Promise<Tree> {
  const tree = makeTree();
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => /"condition_id":"cards-baseline-0[1-4]"/.test(l));
  tree.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');
  return tree;
}

/** Starts the run in a process group of its own and sends `signal` to `whom` once it reports its first row. */
function runUntilFirstRow(tree: Tree, signal: NodeJS.Signals, whom: 'group' | 'cli'): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(bin, args, { cwd: codeRoot, env: { ...process.env, RSTACK_ROOT: tree.root }, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let sent = false;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    // the progress line follows the row's fsync: an event, not a guess at how long a row takes
    if (!sent && /: 1\/12 \(/.test(stderr)) {
      sent = true;
      process.kill(whom === 'group' ? -child.pid! : child.pid!, signal);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const attemptsLines = () => {
  const dir = paths.excludedArm('layers', 'main');
  return fs.readdirSync(dir).filter((f) => f.includes('.failed-attempts')).flatMap((f) => readJsonl<Record<string, unknown>>(path.join(dir, f)));
};

for (const whom of ['group', 'cli'] as const) {
  test(`SIGTERM to ${whom === 'group' ? 'every process of the run (Slurm\'s scancel)' : 'the CLI alone (kill PID)'} mid-run: one cancelled attempt, exit 143, and the same command resumes`, { timeout: 5 * 60_000 }, async (t) => {
    const tree = await smallArm();
    t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
    const cancelled = await runUntilFirstRow(tree, 'SIGTERM', whom);
    assert.equal(cancelled.code, 143, cancelled.stderr);
    assert.match(cancelled.stderr, /^error: cancelled by SIGTERM: \d+ of 12 rows on disk .*; the same command resumes$/m);
    assert.doesNotMatch(cancelled.stderr, /attempt \d+ failed/, 'no unit filed as an infrastructure failure');
    const lines = attemptsLines();
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]!.cancelled, true);
    assert.equal(lines[0]!.error, 'cancelled by SIGTERM');
    const [file] = fs.readdirSync(paths.rawArm('layers', 'main')).map((f) => path.join(paths.rawArm('layers', 'main'), f));
    const written = readJsonl<LayersRow>(file!, { schema: 'trace' }).map(unitKey);
    for (const unit of lines[0]!.in_flight as string[]) assert.ok(!written.includes(unit), `${unit} was cut short, not written`);
    const [end] = readRunLog().filter((l) => l.event === 'end');
    assert.equal(end!.exit, 143);
    assert.equal(end!.rows, written.length);

    const resumed = await run(bin, args, { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });
    assert.equal(resumed.exitCode, 0, resumed.stderr);
    const keys = readJsonl<LayersRow>(file!, { schema: 'trace' }).map(unitKey);
    assert.equal(keys.length, 12);
    assert.equal(new Set(keys).size, 12, 'every row once');
    assert.equal(attemptsLines().length, 1, 'the resume failed no attempt');
  });
}
