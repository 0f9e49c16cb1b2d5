// The run commands' refusals, without a browser: the gate first, clear usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript } from '../helpers/tree.ts';
import { codeRoot } from '../../core/paths.ts';

const withEvidenceTasks = () => {
  const tree = makeTree();
  tree.write('data/tasks/evidence-controlled.jsonl', fs.readFileSync(path.join(codeRoot, 'data/tasks/evidence-controlled.jsonl'), 'utf8'));
  return tree;
};

for (const script of ['run-controlled.ts', 'run-arm-a.ts']) {
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
    assert.equal((await runScript(tree, 'freeze.ts', ['--reason', 'test'])).exitCode, 0);
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
