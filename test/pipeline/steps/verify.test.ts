// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree, runScript } from '../../helpers/tree.ts';

test('make freeze && make verify prints OK; one changed prereg byte fails verify and names the file', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const frozen = await runScript(tree, 'steps/freeze.ts', ['--reason', 'test']);
  assert.equal(frozen.exitCode, 0, frozen.stderr);
  assert.match(frozen.stdout, /ledger entry 0: 1 files frozen/);
  const ok = await runScript(tree, 'steps/verify.ts');
  assert.equal(ok.exitCode, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^OK/);

  const bytes = fs.readFileSync(tree.file('prereg/sample.md'));
  bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1; // flip one bit of one byte
  fs.writeFileSync(tree.file('prereg/sample.md'), bytes);
  const bad = await runScript(tree, 'steps/verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL prereg\/sample\.md: changed since it was frozen in ledger entry 0/);
});

test('verify names an edited older ledger line', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'one']);
  tree.write('prereg/second.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8').replace('id: sample', 'id: second'));
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'two']);
  const ledger = tree.file('manifests/ledger.jsonl');
  fs.writeFileSync(ledger, fs.readFileSync(ledger, 'utf8').replace('"reason":"one"', '"reason":"ONE"'));
  const bad = await runScript(tree, 'steps/verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL manifests\/ledger\.jsonl:1: this line was edited/);
});

test('verify checks raw data against manifests/data.sha256', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'one']);
  tree.write('data/raw/layers/main/stray.jsonl', '{}\n');
  const bad = await runScript(tree, 'steps/verify.ts');
  assert.equal(bad.exitCode, 1);
  assert.match(bad.stdout, /FAIL data\/raw\/layers\/main\/stray\.jsonl: not listed in manifests\/data\.sha256/);
  assert.match(bad.stdout, /FAIL data\/raw\/layers\/main\/stray\.jsonl:1: field schema is missing/);
});

test('a run must be gated by an entry older than the rows it gated; a resume under a later entry is fine', async (t) => {
  const { runProblems } = await import('../../../pipeline/steps/verify.ts');
  const { readLedger } = await import('../../../pipeline/kernel/ledger.ts');
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'one']);
  tree.write('prereg/second.md', fs.readFileSync(tree.file('prereg/sample.md'), 'utf8').replace('id: sample', 'id: second'));
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'two']);
  const ledger = readLedger();
  const [e0, e1] = ledger.map((l) => ({ hash: l.hash, at: Date.parse(l.entry.at) }));
  const row = (head: string, at: number, i: number) => JSON.stringify({
    schema: 'trace/1', study: 'layers', arm: 'main', run_id: 'run-x', condition_id: `c${i}`, policy: 'p', browser: { name: 'chromium', version: '1' },
    ledger_head: head, started_at: new Date(at).toISOString(), elapsed_ms: 1, template: 'cards', layer: 'baseline', severity: 0,
    apparent_success: true, vts: true, false_completion: false, actions: 1, retries: 0, horizon_ms: 100, persisted: {}, target: {},
  });
  // started under entry 0, resumed after entry 1 was written: fine
  tree.write('data/raw/layers/main/run-x.jsonl', [row(e0!.hash, e1!.at - 5, 1), row(e1!.hash, e1!.at + 5, 2)].join('\n') + '\n');
  assert.deepEqual(runProblems(tree.file('data/raw/layers/main/run-x.jsonl'), ledger), []);
  // a row gated by an entry written after it started: refused, named
  tree.write('data/raw/layers/main/run-x.jsonl', [row(e1!.hash, e1!.at - 5, 1)].join('\n') + '\n');
  const problems = runProblems(tree.file('data/raw/layers/main/run-x.jsonl'), ledger);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!, /ledger entry 1 .* is not older than the first row it gated/);
});
