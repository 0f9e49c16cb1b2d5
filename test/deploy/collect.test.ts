// shares the machine: its shards are joined and counted in the plan's order; no outcome is compared.
// The multi-machine path of deploy/, without a cluster: two "pods", each a data root of its own
// seeded with the frozen inputs only (as deploy/kubernetes/indexed-job.yaml does), run their shard of
// a small registered arm at the same time with the real CLI; deploy/collect.ts brings both into a
// third tree, and `make merge`'s script joins them there into one run in the plan's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeTree, runScript, type Tree } from '../helpers/tree.ts';
import { freeze } from '../../pipeline/kernel/ledger.ts';
import { readRunLog } from '../../pipeline/kernel/run-log.ts';
import { checkManifest, dataFiles } from '../../pipeline/kernel/manifest.ts';
import { layersPlan, unitKey } from '../../pipeline/layers/arms.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { codeRoot, paths } from '../../core/paths.ts';
import { setQuiet } from '../../core/log.ts';
import type { LayersRow } from '../../analysis/rows.ts';

const collect = (home: Tree, results: string) =>
  execFileSync(process.execPath, ['--import', 'tsx', path.join(codeRoot, 'deploy/collect.ts'), results], { env: { ...process.env, RSTACK_ROOT: home.root }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('two pods run one shard each in trees of their own; collect.ts and merge join them', async (t) => {
  const home = makeTree();
  t.after(home.cleanup);
  setQuiet(true);
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => /"condition_id":"(cards|modal)-baseline-01"/.test(l));
  home.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');

  // each pod's RSTACK_ROOT: results/shard-<i>/ with prereg/, the ledger and data/tasks/ — what the Job's script copies
  const results = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-results-'));
  t.after(() => fs.rmSync(results, { recursive: true, force: true }));
  const pods: Tree[] = [1, 2].map((i) => {
    const root = path.join(results, `shard-${i}`);
    for (const p of ['prereg', 'manifests/ledger.jsonl', 'data/tasks']) fs.cpSync(home.file(p), path.join(root, p), { recursive: true });
    return { root, file: (p) => path.join(root, p), write: () => undefined, cleanup: () => undefined };
  });
  const runs = await Promise.all(pods.map((pod, k) => runScript(pod, 'layers/run-layers.ts', ['--browser', 'chromium', '--shard', `${k + 1}/2`])));
  for (const r of runs) assert.equal(r.exitCode, 0, r.stderr);

  // a file here with the same name and other bytes is refused (exit 2), nothing overwritten
  const shard1 = fs.readdirSync(pods[0]!.file('data/raw/layers/main'))[0]!;
  home.write(`data/raw/layers/main/${shard1}`, 'not the pod\'s file\n');
  assert.throws(() => collect(home, results), (e: { status?: number; stderr?: string }) => e.status === 2 && String(e.stderr).includes(`refusing: data/raw/layers/main/${shard1} exists here with other bytes`));
  assert.equal(fs.readFileSync(home.file(`data/raw/layers/main/${shard1}`), 'utf8'), 'not the pod\'s file\n');
  fs.rmSync(home.file(`data/raw/layers/main/${shard1}`)); // planted by this test, in its own tree

  assert.match(collect(home, results), /collected 2 shard trees .*: 2 files copied/);
  assert.match(collect(home, results), /: 0 files copied/, 'collecting again copies nothing');
  const shardSessions = readRunLog().filter((l) => /-shard[12]of2-/.test(l.run_id));
  assert.equal(shardSessions.length, 4, 'each pod\'s start and end, once each');

  const merged = await runScript(home, 'steps/merge.ts', ['--arm', 'main', '--browser', 'chromium']);
  assert.equal(merged.exitCode, 0, merged.stderr);
  const raw = paths.rawArm('layers', 'main');
  const files = fs.readdirSync(raw).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1);
  const rows = readJsonl<LayersRow>(path.join(raw, files[0]!), { schema: 'trace' });
  const plan = layersPlan('main', 'chromium');
  assert.deepEqual(rows.map(unitKey), plan.units.map(plan.unitKey));
  assert.equal(new Set(rows.map((r) => r.ledger_head)).size, 1);
  assert.deepEqual(await checkManifest(paths.dataManifest(), dataFiles()), []);

  // collected again after the merge: the merged shards are not brought back into data/raw/
  assert.match(collect(home, results), /: 0 files copied/);
  assert.deepEqual(fs.readdirSync(raw).filter((f) => f.endsWith('.jsonl')), files);
});
