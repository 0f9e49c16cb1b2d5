// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree } from '../../helpers/tree.ts';
import { freeze, readLedger, chainProblems, GENESIS } from '../../../pipeline/kernel/ledger.ts';
import { sha256 } from '../../../core/hash.ts';

test('freeze chains entries, and an unchanged tree adds nothing', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const first = await freeze('first');
  assert.equal(first.added, true);
  assert.equal(first.entry.prev, GENESIS);
  assert.deepEqual(Object.keys(first.entry.files), ['prereg/sample.md']);

  const again = await freeze('nothing changed');
  assert.equal(again.added, false);
  assert.equal(readLedger().length, 1);

  tree.write('prereg/amendment.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8').replace('id: sample', 'id: amendment'));
  const second = await freeze('amendment');
  assert.equal(second.added, true);
  const lines = readLedger();
  assert.equal(lines.length, 2);
  assert.equal(lines[1]!.entry.prev, sha256(lines[0]!.text));
  assert.deepEqual(chainProblems(lines), []);
});

test('an edited older ledger line breaks the chain and is named', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await freeze('one');
  tree.write('prereg/sample.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8') + 'more\n');
  await freeze('two');
  tree.write('prereg/sample.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8') + 'more again\n');
  await freeze('three');
  const ledger = tree.file('manifests/ledger.jsonl');
  const lines = fs.readFileSync(ledger, 'utf8').split('\n');
  lines[0] = lines[0]!.replace('"reason":"one"', '"reason":"uno"');
  fs.writeFileSync(ledger, lines.join('\n'));
  const problems = chainProblems(readLedger());
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /ledger\.jsonl:1: this line was edited/);
});
