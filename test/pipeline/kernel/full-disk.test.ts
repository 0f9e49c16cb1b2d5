// A full disk, for real: a tmpfs of 12 KiB (mount needs root, as make test's set-up does) as the
// scratch folder a run writes into. A failed append leaves the file as it was, a failed atomic write
// leaves no temporary file, and a run that fills the disk ends with one line (the file, the rows
// safely written, that the same command resumes) instead of a stack trace; its run-log end line
// counts the rows on disk. With room again, the same command resumes: every row once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { makeTree } from '../../helpers/tree.ts';
import { run } from '../../helpers/run.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { appendDurable, writeFileAtomic } from '../../../pipeline/kernel/files.ts';
import { readRunLog } from '../../../pipeline/kernel/run-log.ts';
import { unitKey } from '../../../pipeline/layers/arms.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { listFiles } from '../../../core/files.ts';
import { codeRoot, runOutputs } from '../../../core/paths.ts';
import { WriteError } from '../../../core/errors.ts';
import { setQuiet } from '../../../core/log.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

/** A tmpfs of `size` mounted on a fresh folder; unmounted (and the folder removed) after the test. */
function tinyDisk(t: { after(fn: () => void): void }, size: string): { dir: string; resize(size: string): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  t.after(() => {
    execFileSync('umount', [dir]);
    fs.rmdirSync(dir);
  });
  return { dir, resize: (s) => execFileSync('mount', ['-o', `remount,size=${s}`, dir]) };
}

/** Fills the disk with one file, to the last byte it takes. */
function fill(dir: string): void {
  const fd = fs.openSync(path.join(dir, 'filler'), 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(1024, 120));
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
}

test('on a full disk: a failed append leaves the file as it was, a failed atomic write no temporary file', (t) => {
  const disk = tinyDisk(t, '12k');
  const log = path.join(disk.dir, 'log.jsonl');
  const table = path.join(disk.dir, 'table.json');
  appendDurable(log, '{"n":1}\n');
  writeFileAtomic(table, '{"v":1}\n');
  fill(disk.dir);
  // a line longer than what is left in the log's last page
  const long = `{"n":2,"pad":"${'x'.repeat(6000)}"}\n`;
  assert.throws(() => appendDurable(log, long), (e: unknown) => e instanceof WriteError && e.code === 'ENOSPC' && /no space left on device/.test(e.message));
  assert.equal(fs.readFileSync(log, 'utf8'), '{"n":1}\n', 'no torn line: the append was cut back');
  assert.throws(() => writeFileAtomic(table, '{"v":2}\n'), (e: unknown) => e instanceof WriteError && e.message.includes(`could not write`) && e.code === 'ENOSPC');
  assert.equal(fs.readFileSync(table, 'utf8'), '{"v":1}\n', 'the old content stays');
  assert.deepEqual(fs.readdirSync(disk.dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
});

test('a run that fills the disk says so in one line, its end line counts the rows on disk, and the same command resumes with room', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  setQuiet(true);
  // 4 baseline conditions × 3 policies = 12 rows of about 660 bytes: more than the disk takes beside the run log and the lock
  const tasks = fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8').split('\n').filter((l) => /"condition_id":"cards-baseline-0[1-4]"/.test(l));
  tree.write('data/tasks/layers.jsonl', tasks.join('\n') + '\n');
  await freeze('test');
  const disk = tinyDisk(t, '12k');
  const scratch = runOutputs(disk.dir);
  const runLayers = () => run('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/layers/run-layers.ts'), '--browser', 'chromium'], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root, RSTACK_SCRATCH: disk.dir } });

  const full = await runLayers();
  assert.equal(full.exitCode, 1, full.stderr);
  const errors = full.stderr.split('\n').filter((l) => l.startsWith('error:'));
  assert.equal(errors.length, 1, full.stderr);
  const m = /^error: no space left on device writing (.+?): (\d+) of 12 rows are safely in (\S+), and the same command resumes after them once there is room/.exec(errors[0]!);
  assert.ok(m, errors[0]);
  assert.doesNotMatch(full.stderr, /^\s+at /m, 'no stack trace');
  assert.doesNotMatch(full.stderr, /Error: ENOSPC/);
  const file = m[3]!;
  const onDisk = readJsonl<LayersRow>(file, { schema: 'trace' });
  assert.equal(onDisk.length, Number(m[2]), 'the rows it says are safe are on disk, each a whole valid row');
  assert.ok(onDisk.length > 0 && onDisk.length < 12, `stopped mid-run (${onDisk.length} of 12)`);
  assert.ok(fs.readFileSync(file, 'utf8').endsWith('\n'), 'no torn line left behind');
  const end = readRunLog(scratch.runLog()).filter((l) => l.event === 'end');
  if (end.length) assert.equal(end.at(-1)!.rows, onDisk.length, 'the end line counts what is on disk');
  else assert.match(errors[0]!, /not written either: \S*data\/runs\.jsonl/, 'or says it could not be written');
  assert.deepEqual(listFiles(disk.dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');

  disk.resize('1m');
  const resumed = await runLayers();
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`${onDisk.length} already written \\(resuming\\)`));
  const rows = readJsonl<LayersRow>(file, { schema: 'trace' });
  assert.equal(rows.length, 12);
  assert.equal(new Set(rows.map(unitKey)).size, 12, 'every row once');
  assert.deepEqual(listFiles(disk.dir).filter((f) => f.endsWith('.tmp')), []);
});
