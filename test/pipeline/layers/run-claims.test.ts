// The claims arm (the main arm's units, each reference policy's claim kept), as a smoke run in a
// throw-away tree: every row carries the claim, false completion by the page and by the claim, ended
// done and false abandonment, each by its definition; rows go to data/excluded/; a run without
// --smoke is refused while prereg/ holds no prereg of the arm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { setQuiet } from '../../../core/log.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRow } from '../../../core/contracts.ts';

test('run-claims --smoke: three reference policies per condition, each row with its claim and FC both ways; without --smoke and with no prereg of the arm: exit 2', { timeout: 300_000 }, async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  const refused = await runScript(tree, 'layers/run-claims.ts', []);
  assert.equal(refused.exitCode, 2, refused.stderr);
  assert.match(refused.stderr, /the claims arm has no preregistration in prereg\/ \(study layers, arm claims\): run it with --smoke/);
  assert.equal(fs.existsSync(tree.file('data/raw/layers/claims')), false);

  const ran = await runScript(tree, 'layers/run-claims.ts', ['--smoke', '--only', '^cards-(baseline-01|verification-01)$']);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /policy +layer +n +error_n +as +vts +fc +claimed +claim_fc +fa/);
  const dir = tree.file('data/excluded/layers/claims');
  const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl') && !f.includes('failed-attempts'));
  assert.equal(files.length, 1, files.join(', '));
  const rows = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => `${r.condition_id} ${r.policy}`).sort(), [
    'cards-baseline-01 selector-only', 'cards-baseline-01 semantic-recovery', 'cards-baseline-01 verification-aware',
    'cards-verification-01 selector-only', 'cards-verification-01 semantic-recovery', 'cards-verification-01 verification-aware',
  ]);
  for (const r of rows) {
    const where = `${r.condition_id} ${r.policy}`;
    assert.equal(r.arm, 'claims');
    assert.equal(r.error, null, where);
    assert.equal(typeof r.claim?.done, 'boolean', `${where}: a claim`);
    assert.equal(r.false_completion, r.apparent_success && !r.vts, `${where}: false_completion is the page's`);
    assert.equal(r.claim_false_completion, r.claim!.done && !r.vts, `${where}: claim_false_completion is claimed done and not VTS`);
    assert.equal(r.ended_done, r.claim!.done, `${where}: ended done is the claim's`);
    assert.equal(r.false_abandonment, !r.claim!.done && r.vts, `${where}: false abandonment`);
  }
  // the baseline is saved and claimed by every policy; verification-aware claims done only over a stored state
  for (const r of rows.filter((r) => r.condition_id === 'cards-baseline-01')) assert.ok(r.vts && r.claim!.done, `${r.policy} on the baseline`);
  const aware = rows.find((r) => r.condition_id === 'cards-verification-01' && r.policy === 'verification-aware')!;
  assert.equal(aware.claim_false_completion, false, 'verification-aware reads back before it claims done');
  // selector-only trusts the notice: under Verification the page shows success over a store that lacks the value
  const selector = rows.find((r) => r.condition_id === 'cards-verification-01' && r.policy === 'selector-only')!;
  assert.equal(selector.false_completion, true, 'selector-only under Verification: a false completion by the page');
});
