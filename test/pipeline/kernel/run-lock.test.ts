// One writer per run slot (pipeline/kernel/run-lock.ts), with real processes of the real CLI on a
// small registered arm in a throw-away tree: the same shard started while another process writes it
// is refused before it writes a row (exit 2, naming the writer's pid and host), and so is a merge;
// two started at once leave every row exactly once; a writer killed with SIGKILL mid-run leaves
// nothing to clear, and the same command resumes it with every row once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeTree, type Tree } from '../../helpers/tree.ts';
import { start, type Ended } from '../../helpers/run.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { lockRunSlot, slotLockFile } from '../../../pipeline/kernel/run-lock.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { unitKey } from '../../../pipeline/layers/arms.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { countRows } from '../../../core/files.ts';
import { codeRoot, paths } from '../../../core/paths.ts';
import { RStackError } from '../../../core/errors.ts';
import { setQuiet } from '../../../core/log.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

/** A tree whose layers tasks are the first `conditions` card baselines, frozen: a registered arm of 3 × conditions units. */
async function smallArm(conditions: number): Promise<Tree> {
  const tree = makeTree();
  const wanted = new RegExp(`"condition_id":"cards-baseline-0[1-${conditions}]"`);
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => wanted.test(l));
  assert.equal(tasks.length, conditions);
  tree.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');
  return tree;
}

const runLayers = (tree: Tree, args: string[]) =>
  start('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/layers/run-layers.ts'), '--browser', 'chromium', ...args], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } });
const merge = (tree: Tree) =>
  start('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/steps/merge.ts'), '--arm', 'main', '--browser', 'chromium'], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root } }).ended;

const runFiles = () => {
  const dir = paths.rawArm('layers', 'main');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f)) : [];
};

/** Resolves with the arm's one run file once the writer has reported `rows` rows written (its progress
 *  lines on stderr, logged after each row is fsynced): an event, not a poll; rejects if it ends first. */
function untilRows(writer: { child: ChildProcess; ended: Promise<Ended> }, rows: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      if (!lines.some((l) => Number(/: (\d+)\/\d+ \(/.exec(l)?.[1] ?? 0) >= rows)) return;
      writer.child.stderr!.off('data', onData);
      const [file] = runFiles();
      if (file && countRows(file) >= rows) resolve(file);
      else reject(new Error(`the writer reported ${rows} rows, and no run file holds them (files: ${runFiles().join(', ') || 'none'})`));
    };
    writer.child.stderr!.on('data', onData);
    void writer.ended.then((e) => reject(new Error(`the writer ended (exit ${e.exitCode}) before ${rows} rows: ${e.stderr.slice(-2000)}`)));
  });
}

const keysOf = (file: string) => readJsonl<LayersRow>(file, { schema: 'trace' }).map(unitKey);

test('a slot lock: a second taker is refused naming the holder; released, it can be taken again; other slots are free', (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  const slot = { study: 'layers', arm: 'main', prefix: 'layers-main-chromium-shard1of2', smoke: false };
  const lock = lockRunSlot(slot);
  assert.throws(() => lockRunSlot(slot), (e: unknown) => e instanceof RStackError && e.exitCode === 2
    && e.message.includes(`pid ${process.pid} on host ${os.hostname()}`) && /nothing was written/.test(e.message));
  // another shard, the whole arm, and smoke runs of two selections are other slots
  const others = [
    { ...slot, prefix: 'layers-main-chromium-shard2of2' }, { ...slot, prefix: 'layers-main-chromium' },
    { ...slot, smoke: true, selection: '--only a' }, { ...slot, smoke: true, selection: '--only b' },
  ].map((s) => lockRunSlot(s));
  assert.equal(new Set([lock, ...others].map((l) => l.file)).size, 5);
  for (const l of others) l.release();
  lock.release();
  lockRunSlot(slot).release();
  assert.ok(slotLockFile(slot).startsWith(path.join(tree.root, '.state', 'run-locks')), 'in the output root, outside data/ and manifests/');
});

test('the same shard while another process writes it: refused before a row (exit 2, its pid and host), a merge too; every row once', async (t) => {
  const tree = await smallArm(4);
  t.after(tree.cleanup);
  setQuiet(true);
  const first = runLayers(tree, ['--shard', '1/2']);
  t.after(() => { first.child.kill('SIGKILL'); });
  const file = await untilRows(first, 1);
  // the first writer held still mid-run: whatever the second does, it does while the first holds the slot
  first.child.kill('SIGSTOP');
  const before = fs.readFileSync(file, 'utf8');
  const second = await runLayers(tree, ['--shard', '1/2']).ended;
  const merged = await merge(tree);
  first.child.kill('SIGCONT');
  assert.equal(second.exitCode, 2, second.stderr);
  assert.match(second.stderr, new RegExp(`refusing to write layers/main layers-main-chromium-shard1of2: another process writes it: pid ${first.child.pid} on host ${os.hostname()}`));
  assert.equal(merged.exitCode, 2, merged.stderr);
  assert.match(merged.stderr, new RegExp(`pid ${first.child.pid} on host`), 'a merge is refused while a shard is written');
  assert.equal(fs.readFileSync(file, 'utf8'), before, 'the refused process wrote nothing');

  const done = await first.ended;
  assert.equal(done.exitCode, 0, done.stderr);
  assert.deepEqual(runFiles(), [file], 'one run file');
  const keys = keysOf(file);
  assert.equal(keys.length, 6, 'shard 1/2 of 12 units');
  assert.equal(new Set(keys).size, 6, 'every row once');
  const starts = readRunLog().filter((l) => l.event === 'start');
  assert.equal(starts.length, 1, 'one session: the refused one recorded none');

  // and two started at once, as two terminals would: whichever comes second while the other writes is
  // refused naming it (or, had the other ended, finds the run complete); never a row twice
  const pair = [runLayers(tree, ['--shard', '2/2']), runLayers(tree, ['--shard', '2/2'])];
  const twice = await Promise.all(pair.map((p) => p.ended));
  for (const [i, r] of twice.entries()) {
    assert.ok(r.exitCode === 0 || r.exitCode === 2, r.stderr);
    if (r.exitCode === 2) assert.match(r.stderr, new RegExp(`another process writes it: pid ${pair[1 - i]!.child.pid} on host`));
  }
  assert.ok(twice.some((r) => r.exitCode === 0), 'one of them wrote the shard');
  const shard2 = runFiles().filter((f) => f !== file);
  assert.equal(shard2.length, 1, 'one run file of shard 2');
  assert.equal(keysOf(shard2[0]!).length, 6);
  assert.equal(new Set(keysOf(shard2[0]!)).size, 6, 'every row of shard 2 once');
});

test('a writer killed with SIGKILL mid-run leaves no lock to clear: the same command resumes it, every row once', async (t) => {
  const tree = await smallArm(3);
  t.after(tree.cleanup);
  setQuiet(true);
  const killed = runLayers(tree, []);
  t.after(() => { killed.child.kill('SIGKILL'); });
  const file = await untilRows(killed, 2);
  killed.child.kill('SIGKILL');
  const ended = await killed.ended;
  assert.equal(ended.signal, 'SIGKILL');
  const left = countRows(file);
  assert.ok(left >= 2 && left < 9, `killed mid-run (${left} of 9 rows)`);
  assert.ok(fs.existsSync(slotLockFile({ study: 'layers', arm: 'main', prefix: 'layers-main-chromium', smoke: false })), 'its lock file stays, and holds nothing');

  const resumed = await runLayers(tree, []).ended;
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.match(resumed.stderr, /already written \(resuming\)/);
  assert.deepEqual(runFiles(), [file], 'the same run file, resumed');
  const keys = keysOf(file);
  assert.equal(keys.length, 9);
  assert.equal(new Set(keys).size, 9, 'every row once');
  const log = readRunLog();
  assert.equal(log.filter((l) => l.event === 'start').length, 2, 'the killed session and the resume');
  assert.equal(log.filter((l) => l.event === 'end').length, 1, 'the killed one never ended');
});
