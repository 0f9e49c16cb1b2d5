import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { validate } from '../../../core/validate.ts';

test('make demo: one baseline card condition in real Chromium gives a valid row with vts from the server', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  const { head } = await freeze('test');
  const demo = await runScript(tree, 'layers/demo.ts', ['--browser', 'chromium']);
  assert.equal(demo.exitCode, 0, demo.stderr);
  const row = validate<Record<string, unknown>>('trace', JSON.parse(demo.stdout), { file: 'demo stdout' });
  assert.equal(row.ledger_head, head);
  assert.equal(row.condition_id, 'cards-baseline-01');
  assert.deepEqual((row.browser as { name: string }).name, 'chromium');
  assert.equal(row.vts, true);
  assert.equal(row.apparent_success, true);
  assert.equal(row.false_completion, false);
  assert.deepEqual(row.persisted, row.target, 'the server persisted the requested value');
});
