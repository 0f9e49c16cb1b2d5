// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// After a redo changes data/raw, verify says the tables are out of date and names the next command
// (instead of one problem per table and figure); after that command the tree verifies again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { run } from '../../helpers/run.ts';
import { makeTree, type Tree } from '../../helpers/tree.ts';
import { readLedger } from '../../../pipeline/kernel/ledger.ts';
import { excludeFile } from '../../../pipeline/kernel/exclude.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
const runBin = (tree: Tree, args: string[]) => run(bin, args, { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });

/** The hand-counted sample rows as one registered run, gated by the tree's ledger head. */
function registeredRun(runId: string, head: string, edit = (s: string) => s): string {
  const started = new Date(Date.now() + 1000).toISOString();
  return edit(fs.readFileSync(path.join(codeRoot, 'analysis/queries/layers_by_template.sample.jsonl'), 'utf8'))
    .replace(/"run_id":"[^"]+"/g, `"run_id":"${runId}"`)
    .replace(/"ledger_head":"a{64}"/g, `"ledger_head":"${head}"`)
    .replace(/"started_at":"[^"]+"/g, `"started_at":"${started}"`);
}

test('a redo, then verify: one out-of-date problem per manifest naming the next command; after it, OK', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  assert.equal((await runBin(tree, ['freeze', '--reason', 'test'])).exitCode, 0);
  const head = readLedger().at(-1)!.hash;
  tree.write('data/raw/layers/main/run-1.jsonl', registeredRun('run-1', head));
  for (const verb of ['manifest', 'reanalyze', 'figures']) assert.equal((await runBin(tree, [verb])).exitCode, 0, verb);
  const before = await runBin(tree, ['verify']);
  assert.equal(before.exitCode, 0, before.stdout);

  // what `--redo "reason"` does: the registered run moves aside with its reason, a new one is written
  excludeFile(tree.file('data/raw/layers/main/run-1.jsonl'), 'layers', 'main', 'superseded by a redo: test');
  tree.write('data/raw/layers/main/run-2.jsonl', registeredRun('run-2', head, (s) => s.replace('"condition_id":"c1","policy":"selector-only"', '"condition_id":"c1","policy":"semantic-recovery"')));
  assert.equal((await runBin(tree, ['manifest'])).exitCode, 0);

  const after = await runBin(tree, ['verify']);
  assert.equal(after.exitCode, 1);
  const fails = after.stdout.split('\n').filter((l) => l.startsWith('FAIL '));
  assert.equal(fails.length, 2, after.stdout);
  assert.match(fails[0]!, /^FAIL analysis\/out: \d+ files are out of date .*Next: make reanalyze figures, then make verify$/);
  assert.match(fails[1]!, /^FAIL figures\/out: .*out of date/);

  for (const verb of ['reanalyze', 'figures']) assert.equal((await runBin(tree, [verb])).exitCode, 0, verb);
  const fixed = await runBin(tree, ['verify']);
  assert.equal(fixed.exitCode, 0, fixed.stdout);
  assert.match(fixed.stdout, /^OK/);
});
