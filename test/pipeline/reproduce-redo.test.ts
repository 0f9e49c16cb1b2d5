// make reproduce REDO=1 on a slice, in a real browser: a copy of the repository's record (prereg,
// tasks, labels, registered runs, run log, manifests) as the root, the rerun's scratch folder beside
// it. The record must hash the same after the rerun, byte for byte, and the comparison screen must
// name the arm, its rows and the registered run it was set beside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { run } from '../helpers/run.ts';
import { referencePolicies } from '../../pipeline/layers/policies/index.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');

/** A temp root holding a copy of the repository's prereg/, data/ and manifests/. */
function copyOfRecord(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-redo-'));
  for (const sub of ['prereg', 'data', 'manifests']) fs.cpSync(path.join(codeRoot, sub), path.join(dir, 'root', sub), { recursive: true });
  return dir;
}

/** Every file of the record a rerun must leave alone, with its sha256 (computed here, not by the code under test). */
function hashes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    if (fs.statSync(p).isDirectory()) return fs.readdirSync(p).forEach((n) => walk(path.join(p, n)));
    out.set(path.relative(root, p), crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
  };
  for (const sub of ['data/raw', 'data/excluded', 'data/runs.jsonl', 'manifests']) walk(path.join(root, sub));
  return out;
}

test('a slice of the rerun writes only into its scratch folder and sets its rows beside the registered run', { timeout: 180_000 }, async () => {
  const dir = copyOfRecord();
  try {
    const root = path.join(dir, 'root');
    const scratch = path.join(dir, 'scratch');
    const before = hashes(root);
    assert.ok([...before.keys()].some((f) => f.startsWith('data/raw/layers/main/')), 'the copy holds the registered main runs');
    const only = '^cards-state-0[12]$';
    const ended = await run(process.execPath, [bin, 'reproduce-redo', '--skip-arm-b', '--arms', 'main-chromium', '--only', only, '--scratch', scratch], { cwd: codeRoot, env: { RSTACK_ROOT: root } });
    assert.equal(ended.exitCode, 0, ended.stderr);

    assert.deepEqual(hashes(root), before, 'data/raw, data/excluded, data/runs.jsonl and manifests/ unchanged');

    const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { condition_id: string });
    const expected = tasks.filter((t) => new RegExp(only).test(t.condition_id)).length * referencePolicies.length;
    assert.ok(expected > 0);
    const summary = JSON.parse(fs.readFileSync(path.join(scratch, 'reproduce-redo.json'), 'utf8'));
    assert.equal(summary.record_unchanged, true);
    assert.equal(summary.selection, only);
    assert.equal(summary.arms.length, 1);
    const arm = summary.arms[0];
    assert.equal(arm.arm, 'main-chromium');
    assert.equal(arm.rows, expected);
    // every rerun unit is a registered unit, counted once: the same, a flip, or a flagged flip
    assert.equal(arm.same + arm.flips.length + arm.flagged_flips.length, expected);
    assert.equal(arm.only_scratch, 0);
    assert.match(arm.registered_file, /^data\/raw\/layers\/main\/layers-main-chromium-/);
    const scratchRows = fs.readFileSync(path.join(scratch, arm.scratch_file), 'utf8').split('\n').filter(Boolean);
    assert.equal(scratchRows.length, expected, 'the scratch run file holds the slice');
    assert.ok(scratchRows.every((l) => JSON.parse(l).smoke === true), 'a slice is a smoke run');

    // the screen: the arm with its row count and both runs, the analysis's table on each, the flips by name
    assert.match(ended.stdout, new RegExp(`━━ main-chromium \\(layers, chromium\\) ━━ ${expected} rows`));
    assert.ok(ended.stdout.includes(`registered: ${arm.registered_file}`));
    assert.ok(ended.stdout.includes(path.join(scratch, arm.scratch_file)));
    assert.match(ended.stdout, /Table I\. Overall cross-template results/);
    assert.match(ended.stdout, new RegExp(`outcomes: ${arm.same} the same; ${arm.flips.length + arm.flagged_flips.length} flipped`));
    for (const f of arm.flips) assert.ok(ended.stdout.includes(`${f.unit}: ${f.change}`), f.unit);
    assert.match(ended.stdout, /registered record \(data\/raw, data\/excluded, data\/runs\.jsonl, manifests\/\): unchanged/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a scratch folder inside the record, or holding the root, is refused before anything runs', async () => {
  const dir = copyOfRecord();
  try {
    const root = path.join(dir, 'root');
    const before = hashes(root);
    for (const scratch of [path.join(root, 'data', 'raw', 'again'), path.join(root, 'manifests'), dir]) {
      const ended = await run(process.execPath, [bin, 'reproduce-redo', '--skip-arm-b', '--scratch', scratch], { cwd: codeRoot, env: { RSTACK_ROOT: root } });
      assert.equal(ended.exitCode, 2, scratch);
      assert.match(ended.stderr, /must lie outside data\/ and manifests\//);
    }
    assert.deepEqual(hashes(root), before);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
