// The verified arm (the reference policies wrapped by the verifier), as a smoke run in a throw-away
// tree: its rows carry the claim and its false completion (claimed done, not VTS), go to data/excluded/,
// and a run without --smoke is refused while prereg/ holds no prereg of the arm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript, samplePrereg } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { setQuiet } from '../../../core/log.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRow } from '../../../core/contracts.ts';

test('run-verified --smoke: two wrapped policies per condition, each row with its claim; without --smoke and with no prereg of the arm: exit 2', { timeout: 300_000 }, async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  const refused = await runScript(tree, 'layers/run-verified.ts', []);
  assert.equal(refused.exitCode, 2, refused.stderr);
  assert.match(refused.stderr, /the verified arm has no preregistration in prereg\/ \(study layers, arm verified\): run it with --smoke/);
  assert.equal(fs.existsSync(tree.file('data/raw/layers/verified')), false);

  const ran = await runScript(tree, 'layers/run-verified.ts', ['--smoke', '--only', '^cards-(baseline-01|action-01)$']);
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /policy +layer +n +claimed +AS +VTS +FC/);
  const dir = tree.file('data/excluded/layers/verified');
  const files = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl') && !f.includes('failed-attempts'));
  assert.equal(files.length, 1, files.join(', '));
  const rows = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => `${r.condition_id} ${r.policy}`).sort(), [
    'cards-action-01 verified-selector-only', 'cards-action-01 verified-semantic-recovery',
    'cards-baseline-01 verified-selector-only', 'cards-baseline-01 verified-semantic-recovery',
  ]);
  for (const r of rows) {
    assert.equal(r.arm, 'verified');
    assert.equal(typeof r.claim?.done, 'boolean');
    assert.equal(r.false_completion, r.claim!.done && !r.vts, `${r.condition_id} ${r.policy}: false completion is claimed done and not VTS`);
    if (r.claim!.done) assert.equal(r.vts, true, `${r.condition_id} ${r.policy}: claimed done without the save persisted`);
  }
  assert.ok(rows.filter((r) => r.condition_id === 'cards-baseline-01').every((r) => r.claim!.done));
});

test('run-verified: a registered Firefox run on FIREFOX_TRIAL_PATH=lean is refused with exit 2 before anything runs (no amendment adopts that path for the verified arm)', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  tree.write('prereg/verified.md', samplePrereg('verified-test', 'verified'));
  await freeze('test');
  const r = await runScript(tree, 'layers/run-verified.ts', ['--browser', 'firefox'], { FIREFOX_TRIAL_PATH: 'lean' });
  assert.equal(r.exitCode, 2, r.stderr);
  assert.match(r.stderr, /FIREFOX_TRIAL_PATH=lean: no frozen amendment lets a registered layers verified run take Firefox's lean path/);
  assert.equal(fs.existsSync(tree.file('data/raw/layers/verified')), false, 'no run file was opened');
  assert.equal(fs.existsSync(tree.file('data/runs.jsonl')), false, 'no session was logged');
});
