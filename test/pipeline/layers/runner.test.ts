// The worker pool gives the same per-condition outcomes at 1 and at 2 workers (outside the
// traces the prereg declares timing-sensitive), and a rerun resumes instead of duplicating.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeTree } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { unitsFor } from '../../../pipeline/layers/arms.ts';
import { runLayersUnits, unitKey, type LayersRow } from '../../../pipeline/layers/runner.ts';
import { setQuiet } from '../../../core/log.ts';

const slice = '^cards-(access-03|perception-02|action-02|state-01|verification-02)$';

test('same outcomes at 1 and 2 workers; a second run of the same id resumes with nothing to do', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  const { head } = await freeze('test');
  const units = unitsFor('main', slice);
  assert.equal(units.length, 15);
  const run = (runId: string, workers: number) =>
    runLayersUnits({ arm: 'main', runId, units, browserName: 'chromium', ledgerHead: head, workers, smoke: true, label: runId });
  const one = await run('w1', 1);
  const two = await run('w2', 2);
  const outcome = (rows: LayersRow[]) => new Map(rows.map((r) => [unitKey(r), r]));
  const a = outcome(one.rows);
  const b = outcome(two.rows);
  assert.equal(a.size, 15);
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
  for (const [key, r1] of a) {
    const r2 = b.get(key)!;
    if (r1.timing_sensitive || r2.timing_sensitive) continue; // reported, by design, not compared
    assert.deepEqual([r2.apparent_success, r2.vts, r2.false_completion], [r1.apparent_success, r1.vts, r1.false_completion], key);
  }
  const again = await run('w1', 2);
  assert.equal(again.resumed, 15);
  assert.equal(again.rows.length, 15);
});
