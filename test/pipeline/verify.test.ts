import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree, runScript } from '../helpers/tree.ts';

test('make freeze && make verify prints OK; one changed prereg byte fails verify and names the file', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const frozen = await runScript(tree, 'freeze.ts', ['--reason', 'test']);
  assert.equal(frozen.exitCode, 0, frozen.stderr);
  assert.match(frozen.stdout, /ledger entry 0: 1 files frozen/);
  const ok = await runScript(tree, 'verify.ts');
  assert.equal(ok.exitCode, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^OK/);

  const bytes = fs.readFileSync(tree.file('prereg/sample.md'));
  bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1; // flip one bit of one byte
  fs.writeFileSync(tree.file('prereg/sample.md'), bytes);
  const bad = await runScript(tree, 'verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL prereg\/sample\.md: changed since it was frozen in ledger entry 0/);
});

test('verify names an edited older ledger line', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'freeze.ts', ['--reason', 'one']);
  tree.write('prereg/second.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8').replace('id: sample', 'id: second'));
  await runScript(tree, 'freeze.ts', ['--reason', 'two']);
  const ledger = tree.file('manifests/ledger.jsonl');
  fs.writeFileSync(ledger, fs.readFileSync(ledger, 'utf8').replace('"reason":"one"', '"reason":"ONE"'));
  const bad = await runScript(tree, 'verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL manifests\/ledger\.jsonl:1: this line was edited/);
});

test('verify checks raw data against manifests/data.sha256', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'freeze.ts', ['--reason', 'one']);
  tree.write('data/raw/layers/main/stray.jsonl', '{}\n');
  const bad = await runScript(tree, 'verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL data\/raw\/layers\/main\/stray\.jsonl: not listed in manifests\/data\.sha256/);
  assert.match(bad.stdout, /FAIL data\/raw\/layers\/main\/stray\.jsonl:1: field schema is missing/);
});
