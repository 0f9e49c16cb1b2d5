// make merge on two local shards of a small registered arm in a throw-away tree: it refuses (exit 2,
// nothing moved) while a shard is missing, duplicated or incomplete; then it writes one registered
// run whose rows equal, row for row in the plan's order, a single-machine run of the same units
// (times and run ids aside), moves the shards to data/excluded/ with the reason, and logs the merge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { runArm } from '../../../pipeline/kernel/run.ts';
import { existingRun } from '../../../pipeline/kernel/run-files.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { checkManifest, dataFiles } from '../../../pipeline/kernel/manifest.ts';
import { layersPlan, unitKey } from '../../../pipeline/layers/arms.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { paths } from '../../../core/paths.ts';
import { setQuiet } from '../../../core/log.ts';
import { codeRoot } from '../../../core/paths.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

// what a run on another machine, at another time, may change: when, how long (the trace, its margin
// to the scoring boundary, and which of the last save or the policy's return came later and so set
// the boundary), and the run's id; outcomes, actions and persisted state may not
const timesAside = ({ run_id, started_at, elapsed_ms, timing_margin_ms, boundary, smoke, ...rest }: LayersRow & { smoke?: boolean; boundary?: string }) => rest;
const rawFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort() : []);

test('two shards merge into one registered run equal, row for row, to a single-machine run', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  setQuiet(true);
  // a small arm: two baseline conditions × three policies = 6 units (shard 1/2 takes units 0, 2, 4)
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => /"condition_id":"(cards|profile)-baseline-01"/.test(l));
  assert.equal(tasks.length, 2);
  tree.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');
  const plan = () => layersPlan('main', 'chromium');
  const planKeys = plan().units.map((u) => plan().unitKey(u));
  assert.equal(planKeys.length, 6);

  // the single-machine reference (a smoke run: it stays out of data/raw)
  const single = await runArm({ smoke: true, workers: 1 }, plan);
  assert.deepEqual(single.rows.map(unitKey), planKeys, 'a single-machine run writes its rows in the plan order');

  const raw = paths.rawArm('layers', 'main');
  const shard1 = await runArm({ smoke: false, workers: 1, shard: '1/2' }, plan);
  assert.equal(shard1.rows.length, 3);
  assert.match(shard1.runId, /^layers-main-chromium-shard1of2-\d{8}T\d{6}$/);
  assert.equal(existingRun({ study: 'layers', arm: 'main', prefix: 'layers-main-chromium', stamped: true }, false), undefined, 'a shard file is not the arm\'s single-machine run');

  const merge = () => runScript(tree, 'steps/merge.ts', ['--arm', 'main', '--browser', 'chromium']);
  let r = await merge();
  assert.equal(r.exitCode, 2, r.stderr);
  assert.match(r.stderr, /shard 2\/2: missing/);

  // shard 2 written with 2 workers: its rows come out in whatever order the workers finish
  const shard2 = await runArm({ smoke: false, workers: 2, shard: '2/2' }, plan);
  assert.equal(shard2.rows.length, 3);
  assert.deepEqual([...shard1.rows, ...shard2.rows].map(unitKey).sort(), [...planKeys].sort());

  // duplicated: a second file of shard 2
  const copy = path.join(raw, 'layers-main-chromium-shard2of2-20990101T000000.jsonl');
  fs.copyFileSync(shard2.file, copy);
  r = await merge();
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, /shard 2\/2: duplicated: data\/raw\/layers\/main\/layers-main-chromium-shard2of2-\d{8}T\d{6}\.jsonl, data\/raw\/layers\/main\/layers-main-chromium-shard2of2-20990101T000000\.jsonl/);
  fs.rmSync(copy); // planted by this test, in its own tree

  // incomplete: shard 1 without its last row
  const whole = fs.readFileSync(shard1.file, 'utf8');
  fs.writeFileSync(shard1.file, whole.split('\n').filter(Boolean).slice(0, 2).join('\n') + '\n');
  r = await merge();
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, new RegExp(`shard1of2-\\d{8}T\\d{6}\\.jsonl: 1 of its 3 rows missing \\(${planKeys[4]!.replace(/\|/g, '\\|')}\\)`));
  assert.match(r.stderr, /Nothing was written or moved/);
  fs.writeFileSync(shard1.file, whole);
  assert.deepEqual(rawFiles(raw), [path.basename(shard1.file), path.basename(shard2.file)], 'the refusals moved and wrote nothing');

  r = await merge();
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /layers\/main chromium: 6 rows in data\/raw\/layers\/main\/layers-main-chromium-\d{8}T\d{6}\.jsonl/);
  assert.match(r.stdout, /Layer-specific results[^]*baseline  2  2\/2/, 'the merge ends with the arm\'s summary');

  // one registered run, in the plan's order, with its own id
  const files = rawFiles(raw);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^layers-main-chromium-\d{8}T\d{6}\.jsonl$/);
  const mergedId = files[0]!.replace(/\.jsonl$/, '');
  const merged = readJsonl<LayersRow>(path.join(raw, files[0]!), { schema: 'trace' });
  assert.deepEqual(merged.map(unitKey), planKeys);
  assert.ok(merged.every((row) => row.run_id === mergedId));
  assert.deepEqual(merged.map(timesAside), single.rows.map(timesAside), 'row for row a single-machine run, times and run ids aside');

  // the shards: kept in data/excluded/ with the reason; the merge: a session of the run log; the manifest
  const reasons = readJsonl<{ file: string; from: string; reason: string; rows: number }>(paths.exclusionLog()).filter((e) => e.reason === `merged into ${mergedId}`);
  assert.deepEqual(reasons.map((e) => e.from).sort(), [shard1.file, shard2.file].map((f) => path.relative(tree.root, f)).sort());
  for (const e of reasons) assert.equal(readJsonl(tree.file(e.file)).length, 3);
  const end = readRunLog().filter((l) => l.event === 'end').at(-1)!;
  assert.equal(end.run_id, mergedId);
  assert.equal(end.registered, true);
  assert.equal(end.exit, 0);
  assert.equal(end.rows, 6);
  assert.deepEqual([...end.excluded!].sort(), reasons.map((e) => e.file).sort());
  assert.match(end.selection!, /^merge of 2 shards: layers-main-chromium-shard1of2-\S+ layers-main-chromium-shard2of2-\S+$/);
  assert.deepEqual(await checkManifest(paths.dataManifest(), dataFiles()), []);

  // merged once: the shards are gone from data/raw, and a second registered run is refused
  r = await merge();
  assert.equal(r.exitCode, 2);
  assert.match(r.stderr, /no shard run files of layers-main-chromium/);
});
