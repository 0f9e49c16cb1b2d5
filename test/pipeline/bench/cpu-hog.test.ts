// The load trial's CPU hog: one process per core while it runs, none after stop().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { startCpuHog } from '../../../pipeline/bench/cpu-hog.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('the hog starts one busy process per core and stop() ends them all', async () => {
  const hog = startCpuHog({ maxSeconds: 60 });
  assert.equal(hog.pids.size, os.cpus().length);
  assert.ok([...hog.pids].every(alive));
  hog.stop();
  // SIGKILL is delivered asynchronously: wait until the children are reaped (no time limit asserted)
  while ([...hog.pids].some(alive)) await new Promise((r) => setTimeout(r, 20));
  assert.ok([...hog.pids].every((p) => !alive(p)));
});
