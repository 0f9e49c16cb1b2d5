// shares the machine: its own nested runner starts tiny files that only write lines and wait.
// make test's turns (test/helpers/turns.ts): through make test's own runner, with every file started
// at once, the files that run alone never overlap anything, and the sharing ones do run together; a
// turn held by a process that is gone is cleared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { sharesMarker, sharesTheMachine, takeTurn } from './turns.ts';
import { testFiles } from './files.ts';

/** A test file that logs its start, then (sharing) waits for its partner's start or (alone) a moment, then logs its end. */
const fakeTest = (log: string, name: string, partner: string | null) => `${partner ? `${sharesMarker} a fake that waits for ${partner}\n` : '// a fake that runs alone\n'}
import fs from 'node:fs';
import { test } from 'node:test';
const line = (s) => fs.appendFileSync(${JSON.stringify(log)}, s + '\\n');
test(${JSON.stringify(name)}, async () => {
  line('start ${name}');
  ${partner
    ? `let saw = false;
  for (let i = 0; i < Number(process.env.PARTNER_WAITS) && !saw; i++) { saw = fs.readFileSync(${JSON.stringify(log)}, 'utf8').includes('start ${partner}\\n'); if (!saw) await new Promise((r) => setTimeout(r, 100)); }
  line((saw ? 'saw ' : 'missed ') + ${JSON.stringify(partner)});`
    : `await new Promise((r) => setTimeout(r, 300));
  // what the preload must leave alone: a worker thread, and a child given this process's flags in another folder
  const { Worker } = await import('node:worker_threads');
  const { spawnSync } = await import('node:child_process');
  const worker = new Worker('process.exit(0)', { eval: true });
  const code = await new Promise((r) => worker.on('exit', r));
  const child = spawnSync(process.execPath, [...process.execArgv, '-e', 'console.log("child ran")'], { cwd: ${JSON.stringify(path.join(codeRoot, 'test'))}, encoding: 'utf8' });
  line(\`helpers of \${${JSON.stringify(name)}}: worker \${code}, child \${child.status} \${child.stdout.trim()} \${child.stderr.trim().split('\\n')[0] ?? ''}\`);`}
  line('end ${name}');
});
`;

/** Runs `files`, in this order, through make test's runner (test/helpers/run-tests.ts, with its --import) at `concurrency`; the log's lines. */
async function runFakes(dir: string, files: string[], concurrency: number, partnerWaits: number): Promise<string[]> {
  const log = path.join(dir, 'log.txt');
  fs.writeFileSync(log, '');
  const argv = ['--import', 'tsx', '--import', path.join(codeRoot, 'test/helpers/take-turn.mjs'), path.join(codeRoot, 'test/helpers/run-tests.ts'), '--concurrency', String(concurrency), ...files];
  // a runner of its own: without NODE_TEST_CONTEXT, which marks this file's process as a runner's child
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const runner = spawn(process.execPath, argv, { cwd: codeRoot, env: { ...env, PARTNER_WAITS: String(partnerWaits) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  runner.stdout.on('data', (d) => (output += d));
  runner.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve) => runner.on('close', resolve));
  assert.equal(exitCode, 0, output);
  assert.match(output, new RegExp(`ℹ pass ${files.length}\\n`), output);
  assert.equal(fs.existsSync(path.join(os.tmpdir(), `rstackbench-test-turns-${runner.pid}`)), false, 'the last one out removed the turns folder');
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

function assertAloneRanAlone(lines: string[], alone: string[]): void {
  for (const a of alone) {
    const from = lines.indexOf(`start ${a}`);
    assert.ok(from >= 0 && lines[from + 1] === `end ${a}`, `${a} ran alone: nothing between its start and its end\n${lines.join('\n')}`);
  }
}

test('alone files overlap nothing, at any concurrency; in make test\'s order the sharing pair runs together', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-turns-'));
  try {
    const log = path.join(dir, 'log.txt');
    const files = { a1: null, a2: null, a3: null, s1: 's2', s2: 's1' } as Record<string, string | null>;
    for (const [name, partner] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.test.ts`), fakeTest(log, name, partner));
    const ordered = testFiles(dir);
    assert.deepEqual(ordered.map((f) => path.basename(f, '.test.ts')), ['s1', 's2', 'a1', 'a2', 'a3'], 'sharing files first, then the alone ones, each sorted');

    // every file started at once, the alone ones first: each alone file still runs with nothing beside it
    const atOnce = await runFakes(dir, ['a1', 'a2', 'a3', 's1', 's2'].map((n) => path.join(dir, `${n}.test.ts`)), 5, 0);
    assert.equal(atOnce.filter((l) => l.startsWith('start ')).length, 5, atOnce.join('\n'));
    assertAloneRanAlone(atOnce.filter((l) => !l.startsWith('helpers of ')), ['a1', 'a2', 'a3']);
    for (const a of ['a1', 'a2', 'a3']) assert.ok(atOnce.includes(`helpers of ${a}: worker 0, child 0 child ran `), `a worker and a child with the runner's flags run as usual\n${atOnce.join('\n')}`);

    // make test's order at its concurrency: the pair shares, then the alone files take their turns
    const inOrder = await runFakes(dir, ordered, 2, 300);
    assertAloneRanAlone(inOrder.filter((l) => !l.startsWith('helpers of ')), ['a1', 'a2', 'a3']);
    assert.ok(inOrder.includes('saw s2') && inOrder.includes('saw s1'), `the sharing pair ran at once\n${inOrder.join('\n')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an alone turn held by a process that is gone is cleared, and the folder is left empty', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-turns-'));
  try {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    fs.mkdirSync(path.join(dir, 'turns', 'alone'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'turns', 'alone', 'pid'), gone.stdout.trim());
    const giveBack = await takeTurn(path.join(dir, 'turns'), true);
    assert.equal(fs.readFileSync(path.join(dir, 'turns', 'alone', 'pid'), 'utf8'), String(process.pid), 'the turn is now this process’s');
    giveBack();
    assert.equal(fs.existsSync(path.join(dir, 'turns')), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the marker counts only in the leading comment block', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-turns-'));
  try {
    const write = (name: string, text: string) => (fs.writeFileSync(path.join(dir, name), text), path.join(dir, name));
    assert.equal(sharesTheMachine(write('a.test.ts', `// about it\n${sharesMarker} why\nimport x from 'y';\n`)), true);
    assert.equal(sharesTheMachine(write('b.test.ts', `// about it\nimport x from 'y';\n${sharesMarker} why\n`)), false);
    assert.equal(sharesTheMachine(write('c.test.ts', `import x from 'y';\n`)), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
