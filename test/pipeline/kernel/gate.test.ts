// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { gate } from '../../../pipeline/kernel/gate.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { GateError } from '../../../core/errors.ts';

test('the gate refuses when nothing is frozen', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await assert.rejects(gate(), (e) => e instanceof GateError && e.exitCode === 3 && /no freeze yet/.test(e.message));
});

test('the gate passes on a frozen tree and returns the head', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const { head } = await freeze('test');
  assert.equal((await gate()).ledgerHead, head);
});

test('the gate refuses after a prereg changed, naming the file and the refreeze command', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await freeze('test');
  fs.appendFileSync(tree.file('prereg/sample.md'), 'x\n');
  await assert.rejects(gate(), (e) => {
    assert.ok(e instanceof GateError);
    assert.equal(e.exitCode, 3);
    assert.deepEqual(e.changed, ['prereg/sample.md']);
    assert.match(e.message, /prereg\/sample\.md \(changed\)/);
    assert.match(e.message, /make freeze/);
    return true;
  });
});

test('make demo refuses with exit code 3 after a prereg changed', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  await freeze('test');
  fs.appendFileSync(tree.file('prereg/sample.md'), 'x\n');
  const demo = await runScript(tree, 'layers/demo.ts');
  assert.equal(demo.exitCode, 3, demo.stderr);
  assert.match(demo.stderr, /prereg\/sample\.md/);
  assert.equal(demo.stdout, '');
});
