// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Registered outputs: a prereg's `promises:` are checked by make verify against analysis/out and the paper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTree, runScript, samplePrereg } from '../../helpers/tree.ts';
import { promiseProblems, shownInPaper } from '../../../pipeline/kernel/promises.ts';

const withPromises = (id: string, promises: string[]) =>
  samplePrereg(id).replace('supersedes: null\n', `supersedes: null\npromises:\n${promises.map((p) => `  - ${p}`).join('\n')}\n`);

const table = (name: string, columns: string[]) => JSON.stringify({ table: name, title: name, query: `analysis/queries/${name}.sql`, columns, rows: [] });

test('a prereg promising a table that does not exist fails make verify, naming the prereg and the table', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  tree.write('prereg/promising.md', withPromises('promising', ['no_such_table']));
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'promises']);
  const bad = await runScript(tree, 'steps/verify.ts');
  assert.equal(bad.exitCode, 1, bad.stdout + bad.stderr);
  assert.match(bad.stdout, /FAIL prereg\/promising\.md promises table no_such_table, which is not in analysis\/out/);
});

test('a promise is kept only when the table and column exist and the paper shows them', (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  tree.write('analysis/out/layers_overall.json', table('layers_overall', ['browser', 'policy', 'vts_n', 'vts_rate']));
  tree.write('analysis/out/unshown.json', table('unshown', ['a']));
  tree.write('prereg/promising.md', withPromises('promising', ['layers_overall', 'layers_overall.vts_rate', 'layers_overall.nope', 'unshown']));
  tree.write('paper.html', '{{table layers_overall columns=browser,policy,vts%}}');
  const problems = promiseProblems({ paperSource: tree.file('paper.html') });
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.equal(problems[0], 'prereg/promising.md promises layers_overall.nope, but table layers_overall in analysis/out has no column nope');
  assert.match(problems[1]!, /promises table unshown, which .*paper\.html does not show$/);
});

test('the paper shows a column through a table (all columns or the listed ones) or a value or rate placeholder', () => {
  const shown = shownInPaper('{{table a}} {{table b columns=x,y%}} {{value c.z where=k:v}} {{rate d vts where=k:v}}');
  assert.equal(shown.tables.get('a'), 'all');
  assert.deepEqual([...(shown.tables.get('b') as Set<string>)].sort(), ['x', 'y_high', 'y_low', 'y_rate']);
  assert.ok(shown.cells.has('c.z'));
  assert.ok(shown.cells.has('d.vts_rate'));
});
