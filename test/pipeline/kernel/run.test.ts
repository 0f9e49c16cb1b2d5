// The run skeleton with the real `layers` arm in Chromium, on small slices: outcomes do not follow
// the worker count; a stopped smoke run and a stopped redo both resume when their command is
// repeated, losing and duplicating nothing; every failed attempt is kept in data/excluded/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { executeUnits, runArm, type RunFlags } from '../../../pipeline/kernel/run.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { layersPlan, unitKey, unitsFor } from '../../../pipeline/layers/arms.ts';
import { readLayersTasks } from '../../../pipeline/layers/read-tasks.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { paths } from '../../../core/paths.ts';
import { setQuiet } from '../../../core/log.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

const slice = '^cards-(access-03|perception-02|action-02|state-01|verification-02)$';
const smoke = (over: Partial<RunFlags> = {}): RunFlags => ({ smoke: true, workers: 1, only: slice, ...over });
const outcomes = (rows: LayersRow[]) => new Map(rows.map((r) => [unitKey(r), r]));
const exclusions = () => (fs.existsSync(paths.exclusionLog()) ? readJsonl<{ file: string; reason: string }>(paths.exclusionLog()) : []);

/** The real plan, but the n-th unit this session runs fails as an infrastructure error would. */
function failingAt(n: number, units?: ReturnType<typeof unitsFor>) {
  return () => {
    const plan = layersPlan('main', 'chromium', units);
    let seen = 0;
    const real = plan.runUnit;
    return { ...plan, runUnit: (u: Parameters<typeof real>[0], ctx: Parameters<typeof real>[1]) => (++seen === n ? Promise.reject(new Error('planted: the page never loaded')) : real(u, ctx)) };
  };
}

test('same outcomes at 1 and 2 workers; a stopped smoke run resumes when repeated; its failed attempt is kept', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  const one = await runArm(smoke(), () => layersPlan('main', 'chromium'));
  const two = await runArm(smoke({ workers: 2 }), () => layersPlan('main', 'chromium'));
  assert.notEqual(one.file, two.file, 'a complete smoke run is not resumed: the repeat is a new run');
  for (const run of [one, two]) {
    assert.match(run.file, /data\/excluded\/layers\/main\/layers-main-chromium-smoke-/, 'a smoke run lives in data/excluded/');
    assert.ok(exclusions().some((e) => tree.file(e.file) === run.file && /smoke/.test(e.reason)), 'with a line in REASONS.jsonl');
  }
  const log = readRunLog();
  assert.equal(log.filter((l) => l.event === 'start').length, 2);
  assert.ok(log.every((l) => l.registered === false && l.load.length === 3 && (l.commit === null || /^[0-9a-f]{40}$/.test(l.commit))), 'each session: not registered, its load and its commit');
  assert.deepEqual(log.filter((l) => l.event === 'end').map((l) => l.exit), [0, 0]);
  assert.deepEqual(log.filter((l) => l.event === 'start').map((l) => l.workers), [1, 2], 'each session: its worker count');
  assert.ok(log.every((l) => l.executable && fs.existsSync(l.executable) && /chromium/.test(l.executable)), 'each session: the browser executable it launched');
  const a = outcomes(one.rows);
  const b = outcomes(two.rows);
  assert.equal(a.size, 15);
  assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
  for (const [key, r1] of a) {
    const r2 = b.get(key)!;
    if (r1.timing_sensitive || r2.timing_sensitive) continue; // reported, by design, not compared
    assert.deepEqual([r2.apparent_success, r2.vts, r2.false_completion], [r1.apparent_success, r1.vts, r1.false_completion], key);
  }

  // stopped after 4 rows by a failure on the 5th
  await assert.rejects(runArm(smoke({ only: '^cards-baseline-0[1-3]$' }), failingAt(5)), /planted/);
  const stopped = readRunLog().filter((l) => l.event === 'end').at(-1)!;
  assert.equal(stopped.rows, 4);
  assert.equal(stopped.exit, 1);
  const attempts = stopped.excluded!.find((f) => f.includes('failed-attempts'))!;
  assert.ok(attempts, 'the failed attempt has a file in data/excluded/');
  assert.match(fs.readFileSync(tree.file(attempts), 'utf8'), /planted: the page never loaded/);
  assert.ok(exclusions().some((e) => e.file === attempts), 'and a line in REASONS.jsonl');
  const resumed = await runArm(smoke({ only: '^cards-baseline-0[1-3]$' }), () => layersPlan('main', 'chromium'));
  assert.equal(resumed.file, tree.file(stopped.file), 'the same command resumes the stopped smoke run');
  assert.equal(resumed.resumed, 4);
  assert.equal(resumed.rows.length, 9);
  assert.equal(new Set(resumed.rows.map(unitKey)).size, 9, 'nothing written twice');
});

test('a stopped --redo resumes when the same command is repeated; a new reason supersedes again', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  // a registered arm of two conditions × three policies (a plan may carry fewer units than the study's)
  const units = unitsFor('main', readLayersTasks().filter((task) => /^cards-baseline-0[12]$/.test(task.condition_id)));
  const registered = { smoke: false, workers: 1 };
  const first = await runArm(registered, () => layersPlan('main', 'chromium', units));
  assert.equal(first.rows.length, 6);
  await assert.rejects(runArm({ ...registered, redo: 'crash test' }, failingAt(3, units)), /planted/);
  const moved = exclusions().filter((e) => e.reason === 'superseded by a redo: crash test');
  assert.equal(moved.length, 1, 'the registered run was moved aside once');
  const partial = readRunLog().filter((l) => l.event === 'end').at(-1)!;
  assert.equal(partial.rows, 2);
  const repeated = await runArm({ ...registered, redo: 'crash test' }, () => layersPlan('main', 'chromium', units));
  assert.equal(repeated.file, tree.file(partial.file), 'the interrupted redo is resumed, not thrown away');
  assert.equal(repeated.resumed, 2);
  assert.equal(repeated.rows.length, 6);
  assert.equal(exclusions().filter((e) => e.reason.startsWith('superseded by a redo')).length, 1, 'nothing else was superseded');
  const again = await runArm({ ...registered, redo: 'another reason' }, () => layersPlan('main', 'chromium', units));
  assert.notEqual(again.file, repeated.file);
  assert.equal(exclusions().filter((e) => e.reason.startsWith('superseded by a redo')).length, 2);
  assert.ok(fs.existsSync(tree.file(`data/excluded/layers/main/${repeated.runId}.jsonl`)), 'the completed redo run is kept in data/excluded/');
});

test("the run log records the command's exit code as the study's verdict on the finished rows gives it (the evidence gates), not 0 for rows written", async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  const seen: number[] = [];
  const run = await runArm(smoke({ only: '^cards-baseline-01$' }), () => ({
    ...layersPlan('main', 'chromium'),
    exitOf: (rows: LayersRow[], isSmoke: boolean) => {
      seen.push(rows.length);
      return isSmoke ? 7 : 0; // a planted verdict
    },
  }));
  assert.equal(run.rows.length, 3);
  assert.deepEqual(seen, [3], 'the verdict saw every row of the run file, once');
  const end = readRunLog().filter((l) => l.event === 'end').at(-1)!;
  assert.equal(end.exit, 7, "the session's end carries the verdict");
  assert.equal(end.rows, 3);
});

test('a resume that writes rows records its session; a resume of a complete run records nothing', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  await freeze('test');
  const units = unitsFor('main', readLayersTasks().filter((task) => /^cards-baseline-0[12]$/.test(task.condition_id)));
  const registered = { smoke: false, workers: 1 };
  await assert.rejects(runArm(registered, failingAt(3, units)), /planted/);
  const resumed = await runArm(registered, () => layersPlan('main', 'chromium', units));
  assert.equal(resumed.resumed, 2);
  assert.equal(resumed.written, 4);
  const sessions = readRunLog().filter((l) => l.event === 'end');
  assert.deepEqual(sessions.map((l) => [l.file, l.rows]), [[sessions[0]!.file, 2], [sessions[0]!.file, 6]], 'the stopped session and the resume that wrote the rest, each with its rows');
  const record = () => [paths.runLog(), tree.file('manifests/data.sha256')].map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null));
  const before = record();
  const again = await runArm(registered, () => layersPlan('main', 'chromium', units));
  assert.equal(again.file, resumed.file);
  assert.equal(again.written, 0);
  assert.equal(again.rows.length, 6);
  assert.deepEqual(record(), before, 'data/runs.jsonl and the data manifest are byte for byte as they were');
});

test('workers spread over browser processes (--browsers): worker i in process i mod n, every unit once, the outcomes of one process', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(tree.cleanup);
  setQuiet(true);
  const units = unitsFor('main', readLayersTasks().filter((task) => /^cards-(baseline-01|action-01)$/.test(task.condition_id)));
  const runWith = async (browsers: number) => {
    const plan = layersPlan('main', 'firefox', units);
    const processes = new Set<unknown>();
    const rows: LayersRow[] = [];
    await executeUnits({ ...plan, runUnit: (u, ctx) => { processes.add(ctx.browser.browser); return plan.runUnit(u, ctx); } }, units, {
      workers: 2, browsers, runId: 'spread', ledgerHead: '0'.repeat(64), smoke: true,
      onRow: (row) => rows.push(row as LayersRow), onFailure: () => undefined,
    });
    return { processes: processes.size, rows };
  };
  const one = await runWith(1);
  const two = await runWith(2);
  assert.equal(one.processes, 1);
  assert.equal(two.processes, 2, 'two Firefox processes served the two workers');
  assert.equal(two.rows.length, units.length);
  const plan = layersPlan('main', 'firefox', units);
  assert.deepEqual(two.rows.map(unitKey).sort(), units.map((u) => plan.unitKey(u)).sort(), 'every unit once');
  const a = outcomes(one.rows);
  for (const [key, r2] of outcomes(two.rows)) {
    const r1 = a.get(key)!;
    if (r1.timing_sensitive || r2.timing_sensitive) continue;
    assert.deepEqual([r2.apparent_success, r2.vts, r2.false_completion], [r1.apparent_success, r1.vts, r1.false_completion], `${key}: ${r1.error ?? ''} | ${r2.error ?? ''}`);
  }
});
