// core/proc.ts on real processes: this process's own stat line, and a tree of two real children
// (one excluded) walked from this process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { procStat, processTable, processTree } from '../../core/proc.ts';

test("a process's stat: its parent, a running or sleeping state, and CPU ticks that count this process's own work", () => {
  const s = procStat(process.pid)!;
  assert.equal(s.ppid, process.ppid);
  assert.match(s.state, /^[RS]$/);
  const before = s.ticks;
  const t = Date.now();
  while (Date.now() - t < 200) { /* work that the kernel counts */ }
  assert.ok(procStat(process.pid)!.ticks > before, 'ticks grew with the work');
  assert.equal(procStat(2 ** 22 + 7), null, 'no such process');
});

test('the tree under a process holds its children, and an excluded child is left out with its own', async (t) => {
  const kids = [0, 1].map(() => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' }));
  t.after(() => { for (const k of kids) k.kill('SIGKILL'); });
  const pids = (exclude?: Set<number>) => processTree(process.pid, processTable(), exclude).map((s) => s.pid);
  const all = pids();
  assert.equal(all[0], process.pid, 'the root first');
  for (const k of kids) assert.ok(all.includes(k.pid!), `child ${k.pid} in the tree`);
  const without = pids(new Set([kids[0]!.pid!]));
  assert.ok(!without.includes(kids[0]!.pid!) && without.includes(kids[1]!.pid!));
  assert.deepEqual(processTree(2 ** 22 + 7), [], 'no such root: nothing');
});
