// shares the machine: its reruns are counted (same, flipped, flagged), never required to come out as the record.
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
import { codeRoot } from '../../../core/paths.ts';
import { run } from '../../helpers/run.ts';
import { referencePolicies } from '../../../pipeline/layers/policies/index.ts';
import { redoArms } from '../../../pipeline/steps/reproduce-redo.ts';
import { adoptedWorkers } from '../../../pipeline/layers/real-apps/arm.ts';
import { REGISTERED_MAX_WORKERS } from '../../../pipeline/evidence/matrix.ts';
import { armBRegisteredWorkers } from '../../../pipeline/evidence/arm-b/run-arm-b.ts';
import { manifestPath, readManifest } from '../../../pipeline/evidence/arm-b/manifest.ts';

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
    assert.equal(arm.earlier, undefined, 'a first rerun has no earlier sessions');
    assert.equal(summary.whole_wall_s, summary.wall_s);

    // a rerun the machine stopped, resumed by the same command: the session that was cut short (no end
    // line, half its rows) is resumed in the same file, and counted, timed by the scratch run log from its
    // start line to its last row's end; the whole rerun's time adds it
    const log = path.join(scratch, 'data/runs.jsonl');
    const logLines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const start = logLines.map((l) => JSON.parse(l) as { event: string; at: string; file: string; commit: string | null }).find((l) => l.event === 'start' && l.file === arm.scratch_file)!;
    fs.writeFileSync(log, logLines.filter((l) => !(JSON.parse(l).event === 'end' && JSON.parse(l).file === arm.scratch_file)).map((l) => `${l}\n`).join(''));
    const kept = scratchRows.slice(0, Math.ceil(expected / 2));
    fs.writeFileSync(path.join(scratch, arm.scratch_file), kept.map((l) => `${l}\n`).join(''));
    const lastEnd = Math.max(...kept.map((l) => JSON.parse(l) as { started_at: string; elapsed_ms: number }).map((r) => Date.parse(r.started_at) + r.elapsed_ms));
    const again = await run(process.execPath, [bin, 'reproduce-redo', '--skip-arm-b', '--arms', 'main-chromium', '--only', only, '--scratch', scratch], { cwd: codeRoot, env: { RSTACK_ROOT: root } });
    assert.equal(again.exitCode, 0, again.stderr);
    const resumed = JSON.parse(fs.readFileSync(path.join(scratch, 'reproduce-redo.json'), 'utf8'));
    assert.equal(resumed.arms[0].scratch_file, arm.scratch_file, 'the stopped run is resumed in its own file');
    assert.equal(resumed.arms[0].rows, expected);
    assert.deepEqual(resumed.arms[0].earlier, { sessions: 1, wall_s: Math.round(lastEnd - Date.parse(start.at)) / 1000, rows: kept.length, killed: 1, commits: start.commit ? [start.commit] : [] });
    assert.equal(resumed.whole_wall_s, Math.round((resumed.wall_s + resumed.arms[0].earlier.wall_s) * 1000) / 1000);
    assert.match(again.stdout, new RegExp(`earlier sessions of this scratch run: 1 \\(1 stopped before their end\\), ${kept.length} rows in `));
    assert.match(again.stdout, /in pieces: 1 arm ran before in this scratch folder \(1 sessions, by its run log\); the whole rerun: /);
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

test('a rerun in two shards, each in a folder of its own as on two machines, collected; then without --shard each arm is merged from its shards and set beside the registered run', { timeout: 600_000 }, async () => {
  const dir = copyOfRecord();
  try {
    const root = path.join(dir, 'root');
    const results = path.join(dir, 'results');
    const scratch = path.join(dir, 'scratch');
    const before = hashes(root);
    const redo = (into: string, ...extra: string[]) =>
      run(process.execPath, [bin, 'reproduce-redo', '--skip-arm-b', '--arms', 'horizon-chromium', '--scratch', into, ...extra], { cwd: codeRoot, env: { RSTACK_ROOT: root } });
    const registeredFile = fs.readdirSync(path.join(root, 'data/raw/layers/horizon')).filter((f) => f.startsWith('layers-horizon-chromium') && f.endsWith('.jsonl'));
    assert.equal(registeredFile.length, 1);
    const registered = fs.readFileSync(path.join(root, 'data/raw/layers/horizon', registeredFile[0]!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const key = (r: { condition_id: string; policy: string; horizon_ms?: number }) => `${r.condition_id}|${r.policy}|${r.horizon_ms}`;

    const shardRows: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const [i, n] = shard.split('/');
      const own = path.join(results, `shard-${i}`);
      const ended = await redo(own, '--shard', shard);
      assert.equal(ended.exitCode, 0, ended.stderr);
      const summary = JSON.parse(fs.readFileSync(path.join(own, `reproduce-redo-shard${i}of${n}.json`), 'utf8'));
      assert.equal(summary.shard, shard);
      const arm = summary.arms[0];
      assert.match(arm.scratch_file, new RegExp(`layers-horizon-chromium-shard${i}of${n}-`));
      // a shard is set beside the same units of the registered run: every one of its units counted once
      assert.equal(arm.same + arm.flips.length + arm.flagged_flips.length, arm.rows);
      assert.equal(arm.only_scratch, 0);
      assert.equal(arm.only_registered, registered.length - arm.rows);
      shardRows.push(fs.readFileSync(path.join(own, arm.scratch_file), 'utf8').split('\n').filter(Boolean));
    }
    assert.equal(shardRows[0]!.length + shardRows[1]!.length, registered.length, 'the two shards hold every unit between them');

    const collected = await run(process.execPath, ['--import', 'tsx', path.join(codeRoot, 'deploy/collect.ts'), results, scratch], { cwd: codeRoot });
    assert.equal(collected.exitCode, 0, collected.stderr);
    assert.ok(fs.existsSync(path.join(scratch, 'reproduce-redo-shard2of2.json')), "collect.ts brings each shard's summary file");
    const ended = await redo(scratch);
    assert.equal(ended.exitCode, 0, ended.stderr);
    assert.match(ended.stderr, /horizon-chromium: the scratch folder holds its shards 1\/2, 2\/2: merged into one run/);
    assert.deepEqual(hashes(root), before, 'the record is untouched by the shards and the merge');
    const summary = JSON.parse(fs.readFileSync(path.join(scratch, 'reproduce-redo.json'), 'utf8'));
    assert.equal(summary.shard, null);
    assert.deepEqual(summary.shard_runs.map((r: { shard: string }) => r.shard), ['1/2', '2/2']);
    const arm = summary.arms[0];
    assert.deepEqual(arm.shards.map((s: { shard: string; exit: number }) => [s.shard, s.exit]), [['1/2', 0], ['2/2', 0]]);
    assert.equal(arm.wall_s, Math.max(...arm.shards.map((s: { wall_s: number }) => s.wall_s)));
    assert.equal(arm.rows, registered.length);
    assert.equal(arm.only_registered, 0);
    assert.equal(arm.same + arm.flips.length + arm.flagged_flips.length, registered.length);
    // the merged run holds the shards' rows, unchanged but for the run id, in the registered run's unit order
    const merged = fs.readFileSync(path.join(scratch, arm.scratch_file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(merged.map(key), registered.map(key));
    const strip = (r: Record<string, unknown>) => JSON.stringify({ ...r, run_id: null });
    assert.deepEqual(new Set(merged.map(strip)), new Set(shardRows.flat().map((l) => strip(JSON.parse(l)))));
    // any duration the screen prints (12s, 1m16s); the whole and the arm take the slowest shard's time, never 0s
    const shown = String.raw`(?:\d+m)?\d+s`;
    assert.match(ended.stdout, new RegExp(`merged from shards: 1/2 ${shown}, 2/2 ${shown}`));
    const slowest = Math.max(...summary.shard_runs.map((r: { wall_s: number }) => r.wall_s));
    assert.ok(slowest > 0 && arm.wall_s > 0, 'the shards took time');
    assert.ok(summary.wall_s >= slowest, `the merged rerun's wall time (${summary.wall_s} s) counts its slowest shard's (${slowest} s)`);
    assert.doesNotMatch(ended.stdout, /arms? in 0s|^total\s+\d+\s+0s/m, 'no merged time shown as 0s');
    assert.match(ended.stdout, /on 2 machines at once: /);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the rerun runs Arm A at the rows its amendments allow, each in a Firefox process of its own, and the controlled arm in one browser', () => {
  const args = (workers: { layers: number | null; evidence: number | null }, name: string) => redoArms({ workers, armB: false, planFiles: [] }).find((a) => a.name === name)!.args;
  const most = REGISTERED_MAX_WORKERS['arm-a'];
  assert.deepEqual(args({ layers: null, evidence: null }, 'arm-a'), ['--workers', String(most), ...(most > 1 ? ['--browsers', String(most)] : [])]);
  // fewer asked for: as many processes as rows; one row: no --browsers
  assert.deepEqual(args({ layers: null, evidence: 1 }, 'arm-a'), ['--workers', '1']);
  // more asked for than the amendments allow: the cap
  assert.deepEqual(args({ layers: null, evidence: 99 }, 'arm-a').slice(0, 2), ['--workers', String(most)]);
  assert.deepEqual(args({ layers: null, evidence: null }, 'controlled'), ['--workers', String(REGISTERED_MAX_WORKERS.controlled)]);
});

test('the rerun runs Arm B at the trials its sample\'s amendment allows, one Firefox each, and one at a time when asked', () => {
  const armB = (evidence: number | null) => redoArms({ workers: { layers: null, evidence }, armB: true, planFiles: [] }).find((a) => a.name === 'arm-b')!;
  const most = armBRegisteredWorkers(readManifest(manifestPath()).id);
  assert.ok(most > 1, 'the default sample has an overlap amendment');
  assert.deepEqual(armB(null).args, ['--browser', 'firefox', '--workers', String(most), '--browsers', String(most)]);
  assert.equal(armB(null).workers, most);
  assert.deepEqual(armB(1).args, ['--browser', 'firefox']);
  assert.deepEqual(armB(99).args.slice(2, 4), ['--workers', String(most)]);
});

test('the rerun holds the real-application and transport arms (issue 49 item 3): version in force, the workers its amendment adopted per browser, compared with the registered run of that version; --skip-real-apps leaves them out', () => {
  const arms = redoArms({ workers: { layers: null, evidence: null }, armB: false, planFiles: [] });
  const real = arms.filter((a) => /^(real-apps|transport)-/.test(a.name));
  assert.deepEqual(real.map((a) => a.name), ['real-apps-chromium', 'transport-chromium', 'real-apps-firefox', 'transport-firefox']);
  const chromium = real[0]!;
  const adopted = adoptedWorkers('real-apps', 2, 'chromium').workers;
  assert.deepEqual(chromium.args, ['--browser', 'chromium', '--version', '2', '--workers', String(adopted)]);
  assert.equal(chromium.naming.prefix, 'layers-real-apps-v2-chromium', 'beside the registered version-2 run');
  assert.equal(chromium.verb, 'run-real-apps');
  assert.deepEqual(real[2]!.args, ['--browser', 'firefox', '--version', '2', '--workers', String(adoptedWorkers('real-apps', 2, 'firefox').workers)]);
  // the transport arm's version in force is 2 too (prereg/layers-transport-amendment-2.md supersedes version 1)
  assert.deepEqual(real[1]!.args, ['--browser', 'chromium', '--version', '2', '--workers', String(adoptedWorkers('transport', 2, 'chromium').workers)]);
  assert.equal(real[1]!.naming.prefix, 'layers-transport-v2-chromium', 'beside the registered version-2 run');
  assert.equal(real[1]!.tables[0]!.name, 'layers_transport_v2');
  // WORKERS=1 asks for fewer: one store at a time
  const one = redoArms({ workers: { layers: 1, evidence: null }, armB: false, planFiles: [] }).find((a) => a.name === 'real-apps-chromium')!;
  assert.deepEqual(one.args.slice(-2), ['--workers', '1']);
  assert.equal(redoArms({ workers: { layers: null, evidence: null }, armB: false, realApps: false, planFiles: [] }).some((a) => /^(real-apps|transport)-/.test(a.name)), false);
});

test('the rerun holds every small-apps arm make reproduce runs, the verified and claims arms too (issue 49 item 3), in both browsers, each set beside a registered run of its own', () => {
  const arms = redoArms({ workers: { layers: null, evidence: null }, armB: false, realApps: false, planFiles: [] });
  const small = arms.filter((a) => /^(main|horizon|verified|claims)-/.test(a.name));
  assert.deepEqual(small.map((a) => a.name), ['main-chromium', 'horizon-chromium', 'verified-chromium', 'claims-chromium', 'main-firefox', 'horizon-firefox', 'verified-firefox', 'claims-firefox']);
  for (const a of small) {
    const arm = a.name.split('-')[0]!;
    assert.equal(a.verb, { main: 'run-layers', horizon: 'run-horizon', verified: 'run-verified', claims: 'run-claims' }[arm]);
    assert.equal(a.naming.arm, arm);
    assert.deepEqual(a.args.slice(0, 2), ['--browser', a.browser]);
    assert.ok(a.plan, `${a.name}: a plan, so a sharded rerun's files can be merged`);
    assert.ok(a.tables.length, `${a.name}: a table to set the two runs beside each other by`);
    // the registered run it is compared with is found under data/raw/layers/<arm>/ by its naming
    const registered = fs.readdirSync(path.join(codeRoot, 'data', 'raw', 'layers', arm)).filter((f) => f.startsWith(`${a.naming.prefix}-`) && f.endsWith('.jsonl'));
    assert.equal(registered.length, 1, `${a.name}: one registered run named ${a.naming.prefix}-<time>`);
  }
});
