// The run commands' refusals, without a browser: the gate first, clear usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { codeRoot } from '../../../core/paths.ts';

const withEvidenceTasks = () => {
  const tree = makeTree();
  tree.write('data/tasks/evidence-controlled.jsonl', fs.readFileSync(path.join(codeRoot, 'data/tasks/evidence-controlled.jsonl'), 'utf8'));
  return tree;
};

for (const script of ['evidence/run-controlled.ts', 'evidence/run-arm-a.ts']) {
  test(`${script} refuses to run with exit code 3 when nothing is frozen`, async (t) => {
    const tree = withEvidenceTasks();
    t.after(tree.cleanup);
    const r = await runScript(tree, script, ['--smoke']);
    assert.equal(r.exitCode, 3, r.stderr);
    assert.match(r.stderr, /no freeze yet/);
    assert.equal(fs.existsSync(tree.file('data/excluded/evidence')), false, 'no rows were written');
  });

  test(`${script} refuses with exit code 3 when a frozen task changed, naming the file`, async (t) => {
    const tree = withEvidenceTasks();
    t.after(tree.cleanup);
    assert.equal((await runScript(tree, 'steps/freeze.ts', ['--reason', 'test'])).exitCode, 0);
    fs.appendFileSync(tree.file('data/tasks/evidence-controlled.jsonl'), '\n');
    const r = await runScript(tree, script, ['--smoke']);
    assert.equal(r.exitCode, 3);
    assert.match(r.stderr, /data\/tasks\/evidence-controlled\.jsonl \(changed\)/);
  });

  test(`${script}: --only without --smoke is a usage error (exit 2); --help answers`, async (t) => {
    const tree = withEvidenceTasks();
    t.after(tree.cleanup);
    const r = await runScript(tree, script, ['--only', 'ev-success']);
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /--only selects a slice, which is a smoke run/);
    const help = await runScript(tree, script, ['--help']);
    assert.equal(help.exitCode, 0);
    assert.match(help.stdout, /--smoke/);
  });
}

for (const [script, most, source] of [['evidence/run-controlled.ts', 16, 'evidence-controlled-amendment-2'], ['evidence/run-arm-a.ts', 2, 'evidence-arm-a-amendment-4']] as const) {
  test(`${script}: a registered run above its amendments' cap (${most} rows at once) is refused with exit 2 before anything runs; a smoke run is not capped`, async (t) => {
    const tree = withEvidenceTasks();
    t.after(tree.cleanup);
    assert.equal((await runScript(tree, 'steps/freeze.ts', ['--reason', 'test'])).exitCode, 0);
    const r = await runScript(tree, script, ['--workers', String(most + 1)]);
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`at most ${most} rows? at once \\(prereg/${source}\\.md\\)`));
    assert.equal(fs.existsSync(tree.file('data/raw/evidence')), false, 'no run file was opened');
    assert.equal(fs.existsSync(tree.file('data/runs.jsonl')), false, 'no session was logged');
    // the same count as a smoke run passes the cap and stops only at what the tree lacks (a browser run is not needed to tell)
    const smoke = await runScript(tree, script, ['--smoke', '--workers', String(most + 1), '--only', '^no-such-condition$']);
    assert.doesNotMatch(smoke.stderr, /at most \d+ rows? at once/);
  });
}

test('evidence/run-arm-a.ts: registered rows at once share no Firefox: more rows than --browsers is refused with exit 2 before anything runs, naming the count to give', async (t) => {
  const tree = withEvidenceTasks();
  t.after(tree.cleanup);
  assert.equal((await runScript(tree, 'steps/freeze.ts', ['--reason', 'test'])).exitCode, 0);
  for (const args of [['--workers', '2'], ['--workers', '2', '--browsers', '1']]) {
    const r = await runScript(tree, 'evidence/run-arm-a.ts', args);
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /at most 1 row at once in each browser process \(prereg\/evidence-arm-a-amendment-4\.md\); give --browsers 2/);
  }
  assert.equal(fs.existsSync(tree.file('data/raw/evidence')), false, 'no run file was opened');
  assert.equal(fs.existsSync(tree.file('data/runs.jsonl')), false, 'no session was logged');
});

// Arm A's registered runs take the lean path since ledger entry 33 (prereg/evidence-arm-a-firefox-path-adopt.md);
// the refusal of lean for an arm no amendment adopts it for is in test/pipeline/layers/run-verified.test.ts
test('evidence/run-arm-a.ts: a FIREFOX_TRIAL_PATH that is no path is refused with exit 2 before anything runs', async (t) => {
  const tree = withEvidenceTasks();
  t.after(tree.cleanup);
  assert.equal((await runScript(tree, 'steps/freeze.ts', ['--reason', 'test'])).exitCode, 0);
  const bad = await runScript(tree, 'evidence/run-arm-a.ts', ['--smoke'], { FIREFOX_TRIAL_PATH: 'tabs' });
  assert.equal(bad.exitCode, 2, bad.stderr);
  assert.match(bad.stderr, /FIREFOX_TRIAL_PATH takes playwright or lean, not "tabs"/);
  assert.equal(fs.existsSync(tree.file('data/excluded/evidence')), false, 'no run file was opened');
});
