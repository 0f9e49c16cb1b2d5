// core/proc.ts on real processes: this process's own stat line, a tree of two real children (one
// excluded) walked from this process, and a pid's record told apart from a later process given that pid
// (what the run log's running sessions rest on: CI found a run killed hours before taken for a live one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { procStat, processTable, processTree, stillRunning } from '../../core/proc.ts';
import { overlappingSessions, runningSessions, type RunLogLine } from '../../pipeline/kernel/run-log.ts';

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

test('a record made by a pid is still running only while the process that made it runs, not a later one given the same pid', (t) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const started = procStat(child.pid!)!.startedAtMs;
  assert.ok(Math.abs(started - Date.now()) < 60_000, 'its start time is the boot time plus its ticks: about now');
  assert.equal(stillRunning(child.pid!, new Date().toISOString()), true, 'a record written after it started');
  assert.equal(stillRunning(child.pid!, new Date(Date.now() - 3_600_000).toISOString()), false, 'a record an hour older than the process: another process had that pid');
  assert.equal(stillRunning(2 ** 22 + 7, new Date().toISOString()), false);
});

test("the run log's running sessions leave out a session whose pid a later process holds (the pid of a run killed hours ago)", (t) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const line = (session: string, at: string) => ({ schema: 'run-log/1', event: 'start', session, at, pid: child.pid, host: os.hostname(), registered: true }) as unknown as RunLogLine;
  const now = new Date().toISOString();
  const old = new Date(Date.now() - 3_600_000).toISOString();
  assert.deepEqual(runningSessions([line('now', now), line('killed-an-hour-ago', old)]).map((l) => l.session), ['now']);
  const ended = { ...line('now', now), event: 'end' } as RunLogLine;
  assert.deepEqual(runningSessions([line('now', now), ended]), [], 'an ended session is not running');
});

test("a run overlapped the sessions that ran beside it, not a session killed before it began that left only a start line", (t) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.after(() => child.kill('SIGKILL'));
  const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
  const line = (event: string, session: string, at: string, pid = child.pid) => ({ schema: 'run-log/1', event, session, at, pid, host: os.hostname(), registered: true }) as unknown as RunLogLine;
  const self = line('start', 'self', ago(30));
  const log = [
    line('start', 'killed-hours-ago', ago(600), 2 ** 22 + 7), // no end line, its process long gone
    line('start', 'ended-before', ago(90)), line('end', 'ended-before', ago(60)),
    line('start', 'ended-during', ago(45)), line('end', 'ended-during', ago(20)),
    line('start', 'still-running', ago(0)), // its process (the child) started before its record and still runs
    { ...line('start', 'on-another-machine', ago(600), 2 ** 22 + 7), host: `not-${os.hostname()}` } as RunLogLine, // cannot be looked at
    self,
  ];
  assert.deepEqual(overlappingSessions(log, self, new Date(Date.now() + 1000).toISOString()), ['ended-during', 'still-running', 'on-another-machine']);
});
