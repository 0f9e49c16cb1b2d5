// shares the machine: it asserts exit codes, files and what commands print, never an outcome that depends on speed.
// bin/rstackbench: each documented exit code is what a user gets from the documented command,
// provoked for real in a throw-away tree (RSTACK_ROOT); and what make gives for the same failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { run, start } from '../helpers/run.ts';
import { validate } from '../../core/validate.ts';
import { makeTree, type Tree } from '../helpers/tree.ts';
import { recordChanges, recordFingerprint, verbsFile } from '../../pipeline/cli/dispatch.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
const runBin = (tree: Tree, args: string[]) => run(bin, args, { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });
const runMake = (tree: Tree, args: string[]) =>
  run('make', ['--no-print-directory', '-s', ...args], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });
const table = () => JSON.parse(fs.readFileSync(verbsFile, 'utf8')) as { verbs: Record<string, { script: string }> };

test('the verbs table is valid, every script exists, and every verb the Makefile calls is in it', () => {
  const verbs = validate<{ verbs: Record<string, { script: string }> }>('verbs', table(), { file: 'pipeline/verbs.json' }).verbs;
  for (const [verb, { script }] of Object.entries(verbs)) assert.ok(fs.existsSync(path.join(codeRoot, script)), `${verb}: ${script} is missing`);
  const makefile = fs.readFileSync(path.join(codeRoot, 'Makefile'), 'utf8');
  const called = [...makefile.matchAll(/\$\(RSTACKBENCH\) ([a-z-]+)/g)].map((m) => m[1]!);
  assert.ok(called.length >= 15, `the Makefile calls the CLI (${called.length} calls found)`);
  for (const verb of called) assert.ok(Object.hasOwn(verbs, verb), `the Makefile calls ${verb}, which pipeline/verbs.json does not have`);
  assert.doesNotMatch(makefile, /\$\(TSX\) pipeline\//, 'no Make target bypasses the CLI');
});

test('pipeline/ holds the verbs table and folders only: each verb lives in its study\'s, arm\'s or the steps\' folder', () => {
  const loose = fs.readdirSync(path.join(codeRoot, 'pipeline'), { withFileTypes: true }).filter((e) => e.isFile() && e.name !== 'verbs.json').map((e) => e.name);
  assert.deepEqual(loose, [], `files loose in pipeline/: ${loose.join(', ')}`);
  for (const { script } of Object.values(table().verbs)) {
    if (script.startsWith('pipeline/')) assert.match(script, /^pipeline\/[a-z-]+\/.+/, `${script} sits in a folder of pipeline/`);
  }
});

test('--help lists every verb and exits 0; an unknown verb or none exits 2 with the list', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const help = await runBin(tree, ['--help']);
  assert.equal(help.exitCode, 0);
  for (const verb of Object.keys(table().verbs)) assert.match(help.stdout, new RegExp(`^  ${verb} `, 'm'));
  const unknown = await runBin(tree, ['run-everything']);
  assert.equal(unknown.exitCode, 2);
  assert.match(unknown.stderr, /unknown verb "run-everything"/);
  assert.match(unknown.stderr, /^ {2}run-layers /m);
  const none = await runBin(tree, []);
  assert.equal(none.exitCode, 2);
  assert.match(none.stderr, /usage: rstackbench <verb>/);
  const npx = await run('npx', ['--no-install', 'rstackbench', 'demo', '--bogus'], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });
  assert.equal(npx.exitCode, 2, 'npx rstackbench resolves to bin/rstackbench in the clone (package.json "bin")');
  assert.match(npx.stderr, /--bogus/);
  const verbHelp = await runBin(tree, ['verify', '--help']);
  assert.equal(verbHelp.exitCode, 0);
  assert.match(verbHelp.stdout, /check the ledger chain/, 'a verb\'s --help is its script\'s');
});

test('exit 0: freeze then verify in a fresh tree', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const frozen = await runBin(tree, ['freeze', '--reason', 'test']);
  assert.equal(frozen.exitCode, 0, frozen.stderr);
  const ok = await runBin(tree, ['verify']);
  assert.equal(ok.exitCode, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^OK/);
});

test('exit 1: verify on a tampered data file; make gives 2 and says "Error 1"', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runBin(tree, ['freeze', '--reason', 'test']);
  tree.write('data/excluded/layers/main/smoke-x.jsonl', '{"a":1}\n');
  assert.equal((await runBin(tree, ['manifest'])).exitCode, 0);
  assert.equal((await runBin(tree, ['verify'])).exitCode, 0, 'the manifest covers the file');
  fs.appendFileSync(tree.file('data/excluded/layers/main/smoke-x.jsonl'), '{"a":2}\n');
  const bad = await runBin(tree, ['verify']);
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL data\/excluded\/layers\/main\/smoke-x\.jsonl: sha256 differs from manifests\/data\.sha256/);
  const viaMake = await runMake(tree, ['verify']);
  assert.equal(viaMake.exitCode, 2, 'make exits 2 whatever the recipe exited with');
  assert.match(viaMake.stderr, /\[Makefile:\d+: verify\] Error 1/);
});

test('exit 2: a bad flag, and a malformed file (named)', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const flag = await runBin(tree, ['freeze', '--reasn', 'typo']);
  assert.equal(flag.exitCode, 2);
  assert.match(flag.stderr, /^error: unknown option --reasn for freeze; its options: npx rstackbench freeze --help \(or make freeze ARGS=--help\)$/m, 'the flag, the verb, and where its options are listed');
  const missing = await runBin(tree, ['run-layers', '--workers']);
  assert.equal(missing.exitCode, 2);
  assert.match(missing.stderr, /--workers needs a value for run-layers; its options: npx rstackbench run-layers --help \(or make run-layers ARGS=--help\)/);
  const noTarget = await runBin(tree, ['compare', '--bogus']);
  assert.match(noTarget.stderr, /unknown option --bogus for compare; its options: npx rstackbench compare --help$/m, 'a verb without a Make target names none');
  tree.write('prereg/broken.md', '# a prereg without its front matter\n');
  const malformed = await runBin(tree, ['freeze', '--reason', 'test']);
  assert.equal(malformed.exitCode, 2, malformed.stderr);
  assert.match(malformed.stderr, /prereg\/broken\.md/);
  assert.ok(!fs.existsSync(tree.file('manifests/ledger.jsonl')) || fs.readFileSync(tree.file('manifests/ledger.jsonl'), 'utf8') === '', 'nothing was frozen');
  const viaMake = await runMake(tree, ['freeze', 'REASON=test']);
  assert.equal(viaMake.exitCode, 2);
  assert.match(viaMake.stderr, /\[Makefile:\d+: freeze\] Error 2/);
});

test('exit 3: a changed prereg, then demo; make gives 2 and says "Error 3"', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  assert.equal((await runBin(tree, ['freeze', '--reason', 'test'])).exitCode, 0);
  fs.appendFileSync(tree.file('prereg/sample.md'), 'x\n');
  const refused = await runBin(tree, ['demo']);
  assert.equal(refused.exitCode, 3, refused.stderr);
  assert.match(refused.stderr, /refusing to run: this file differs from the ledger head:\n {2}prereg\/sample\.md \(changed\)/);
  const viaMake = await runMake(tree, ['demo']);
  assert.equal(viaMake.exitCode, 2);
  assert.match(viaMake.stderr, /\[Makefile:\d+: demo\] Error 3/);
});

// the dispatcher itself, against a table whose one verb is a stand-in script (test/bin/child.ts)
function standIn(t: { after(fn: () => void): void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-verbs-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const tableFile = path.join(dir, 'verbs.json');
  fs.writeFileSync(tableFile, JSON.stringify({ verbs: {
    child: { script: 'test/bin/child.ts', summary: 'a stand-in' },
    wrapper: { script: 'test/bin/child.ts', wraps: true, summary: 'a stand-in for a verb that runs a command of its own (with-sites)' },
  } }));
  return (args: string[], env: Record<string, string>, verb = 'child') =>
    start('node', ['--import', 'tsx', path.join(codeRoot, 'test', 'bin', 'dispatch-with.ts'), tableFile, verb, ...args], { cwd: codeRoot, env });
}

test('the child\'s exit code passes through unchanged, and a change to what the tables are made from is followed by the next command', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const stand = standIn(t);
  const seven = await stand(['--exit', '7'], { RSTACK_ROOT: tree.root }).ended;
  assert.equal(seven.exitCode, 7);
  assert.doesNotMatch(seven.stderr, /changed/, 'a step that wrote nothing says nothing');
  const registered = await stand(['--append', 'data/raw/layers/main/run-1.jsonl', '--exit', '1'], { RSTACK_ROOT: tree.root }).ended;
  assert.equal(registered.exitCode, 1);
  assert.match(registered.stderr, /^data\/raw changed \(1 file written, grown or moved\)[^\n]*\nNext: make reanalyze figures .*then make verify$/m);
  // the deviations tables are made from data/excluded too: a smoke run also changes them
  const smoke = await stand(['--append', 'data/excluded/layers/main/smoke-1.jsonl'], { RSTACK_ROOT: tree.root }).ended;
  assert.equal(smoke.exitCode, 0);
  assert.match(smoke.stderr, /^data\/excluded changed \(1 file/m);
  const outside = await stand(['--append', 'data/elsewhere.jsonl'], { RSTACK_ROOT: tree.root }).ended;
  assert.doesNotMatch(outside.stderr, /changed/, 'a file the tables are not made from says nothing');
  // a verb that wraps a command (with-sites -- make run-arm-b) leaves the note to the verb inside it, so it is said once
  const wrapped = await stand(['--append', 'data/raw/layers/main/run-2.jsonl'], { RSTACK_ROOT: tree.root }, 'wrapper').ended;
  assert.equal(wrapped.exitCode, 0);
  assert.doesNotMatch(wrapped.stderr, /changed/);
});

test('a signal sent to rstackbench alone reaches the child, and rstackbench ends by it', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const { child: proc, ended: done } = standIn(t)(['--wait'], { RSTACK_ROOT: tree.root });
  const childPid = await new Promise<number>((resolve) =>
    proc.stdout!.on('data', (d: Buffer) => { const m = /ready (\d+)/.exec(d.toString()); if (m) resolve(Number(m[1])); }));
  assert.notEqual(childPid, proc.pid, 'the script runs as a child process');
  proc.kill('SIGTERM'); // the dispatcher only; the child is another process
  const ended = await done;
  assert.equal(ended.signal, 'SIGTERM');
  assert.ok(!fs.existsSync(`/proc/${childPid}`), 'the child was ended by the signal, not left behind');
});

test('recordFingerprint sees a file added, grown or moved away, and names the input it changed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-raw-'));
  try {
    const inputs = [{ label: 'data/raw', path: path.join(dir, 'raw') }, { label: 'data/excluded', path: path.join(dir, 'excluded') }, { label: 'log', path: path.join(dir, 'runs.jsonl') }];
    const a = path.join(dir, 'raw', 'layers', 'main', 'a.jsonl');
    fs.mkdirSync(path.dirname(a), { recursive: true });
    const empty = recordFingerprint(inputs);
    fs.writeFileSync(a, '{}\n');
    const one = recordFingerprint(inputs);
    assert.deepEqual(recordChanges(empty, one), { count: 1, inputs: ['data/raw'] });
    assert.deepEqual(recordChanges(one, recordFingerprint(inputs)), { count: 0, inputs: [] });
    fs.appendFileSync(a, '{}\n');
    fs.writeFileSync(path.join(dir, 'runs.jsonl'), '{}\n');
    const grown = recordFingerprint(inputs);
    assert.deepEqual(recordChanges(one, grown), { count: 2, inputs: ['data/raw', 'log'] });
    fs.mkdirSync(path.join(dir, 'excluded'));
    fs.renameSync(a, path.join(dir, 'excluded', 'a.jsonl'));
    assert.deepEqual(recordChanges(grown, recordFingerprint(inputs)), { count: 2, inputs: ['data/excluded', 'data/raw'] }, 'gone from one place, new in another');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('make reproduce ARM_B=0 plans no Arm B step and says so (make -n: nothing is run)', async () => {
  // only ARM_B=0 can be dry-run safely: make -n still runs recipe lines that call $(MAKE), as the Arm B line does
  const plan = await run('make', ['-n', '--no-print-directory', 'reproduce', 'ARM_B=0'], { cwd: codeRoot });
  assert.equal(plan.exitCode, 0, plan.stderr);
  assert.match(plan.stdout, /ARM_B=0: Arm B skipped/);
  assert.doesNotMatch(plan.stdout, /wordpress|run-arm-b/);
  assert.match(plan.stdout, /bin\/rstackbench run-arm-a/, 'the other arms are still planned');
  const makefile = fs.readFileSync(path.join(codeRoot, 'Makefile'), 'utf8');
  assert.match(makefile, /ifeq \(\$\(ARM_B\),0\)[\s\S]*?else[\s\S]*?\$\(RSTACKBENCH\) with-sites --sites wordpress -- \$\(MAKE\)[^\n]*run-arm-b[\s\S]*?endif/, 'without ARM_B=0 the Arm B step runs');
});

test('make reproduce REDO=1 plans the scratch rerun between two verifies, and no registered run (make -n: nothing is run)', async () => {
  // the REDO branch has no line that calls $(MAKE), so make -n runs none of it
  const plan = await run('make', ['-n', '--no-print-directory', 'reproduce', 'REDO=1', 'ARM_B=0'], { cwd: codeRoot });
  assert.equal(plan.exitCode, 0, plan.stderr);
  assert.match(plan.stdout, /bin\/rstackbench verify\n[\s\S]*bin\/rstackbench reproduce-redo --skip-arm-b *\n[\s\S]*bin\/rstackbench verify/);
  assert.doesNotMatch(plan.stdout, /run-layers|run-controlled|run-arm-a|wordpress|\bpaper\b/);
  const withWorkers = await run('make', ['-n', '--no-print-directory', 'reproduce', 'REDO=1', 'ARM_B=0', 'WORKERS=3'], { cwd: codeRoot });
  assert.match(withWorkers.stdout, /reproduce-redo --skip-arm-b --workers 3/, 'WORKERS given: the layers arms run at it');
  const withoutReal = await run('make', ['-n', '--no-print-directory', 'reproduce', 'REDO=1', 'ARM_B=0', 'ARM_REAL=0'], { cwd: codeRoot });
  assert.match(withoutReal.stdout, /reproduce-redo --skip-arm-b --skip-real-apps *\n/, 'ARM_REAL=0: the real-application and transport arms left out');
});
