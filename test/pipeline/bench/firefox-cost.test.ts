// make bench ARGS=--firefox-cost (pipeline/bench/firefox-cost.ts), small and real: the /proc reading
// counts a process tree's CPU with a child that already ended (reaped) in it, and one block of two
// variants in Debian's Firefox (Playwright and the raw BiDi client) does its cycles, each a save the
// page's server received, with the browser's CPU and the processes it started counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { playwrightFirefoxPrefs, runFirefoxCost, treeCpuSeconds } from '../../../pipeline/bench/firefox-cost.ts';

test("a process tree's CPU from /proc includes a child that ended and was reaped, at least the CPU that child itself reported", async () => {
  // the parent forks a child that spins and reports its own CPU, waits for it to end (reaping it),
  // then prints that report and stays alive to be read
  const script = `
    const { spawnSync } = require('node:child_process');
    const r = spawnSync(process.execPath, ['-e', 'const t=Date.now();while(Date.now()-t<400){} const u=process.cpuUsage(); console.log((u.user+u.system)/1e6)'], { encoding: 'utf8' });
    console.log(r.stdout.trim());
    setTimeout(() => {}, 60000);`;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const childCpu = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d).trim()))));
    assert.ok(childCpu > 0, `the child spun (${childCpu} s)`);
    const total = treeCpuSeconds(parent.pid!);
    // clock ticks are 10 ms: the tree's count may round the child's down by at most a tick
    assert.ok(total >= childCpu - 0.011, `the tree's ${total} s include the reaped child's ${childCpu} s`);
    assert.equal(treeCpuSeconds(2 ** 22 + 7), 0, 'no such process: nothing counted');
  } finally {
    parent.kill('SIGKILL');
  }
});

test('one block of three variants in Debian\'s Firefox: every cycle saved once, the browser\'s CPU and started processes counted, the share between them computed', async () => {
  const lines: string[] = [];
  const r = await runFirefoxCost({ cycles: 2, blocks: 1, variants: ['pw-trace', 'pw-bare', 'bidi-bare'], progress: (l) => lines.push(l) });
  assert.match(r.firefox, /^\d+\.\d+/);
  assert.deepEqual(r.raw.map((b) => [b.variant, b.cycles]), [['pw-trace', 2], ['pw-bare', 2], ['bidi-bare', 2]]);
  for (const b of r.raw) {
    assert.ok(b.cpu_s > 0, `${b.variant}: Firefox spent CPU (${b.cpu_s} s)`);
    // the tree walk finds Firefox's content processes under its parent; a walk that lost the tree would see the
    // parent alone. How many start within a block is not asserted: a fresh context may take a content process
    // Firefox launched ahead, and raw BiDi blocks of two cycles were seen starting none
    assert.ok(b.processes_seen > 1, `${b.variant}: the parent and its content processes (${b.processes_seen} processes)`);
  }
  assert.equal(lines.length, 3, 'a progress line per block');
  assert.deepEqual(r.variants.map((v) => v.variant), ['pw-trace', 'pw-bare', 'bidi-bare']);
  assert.equal(r.variants[0]!.vs_pw_trace, 0);
  // the one share these variants define: pw-trace → pw-bare, the difference of their medians
  assert.deepEqual(r.shares.map((s) => [s.from, s.to]), [['pw-trace', 'pw-bare']]);
  const perCycle = (v: string) => r.raw.find((b) => b.variant === v)!.cpu_s / 2;
  assert.ok(Math.abs(r.shares[0]!.cpu_s_per_cycle - (perCycle('pw-trace') - perCycle('pw-bare'))) < 0.002);
});

test("the preferences Playwright writes into its Firefox profile are read from that profile's user.js while it runs", async () => {
  const prefs = await playwrightFirefoxPrefs();
  // two of playwright-core 1.64's own defaults (its createProfile), of which the harness's profile has neither
  assert.equal(prefs['dom.testing.testutils.enabled'], true);
  assert.equal(prefs['toolkit.startup.max_resumed_crashes'], -1);
  assert.ok(Object.keys(prefs).length > 50, `a long list (${Object.keys(prefs).length})`);
});

test("the lean path's variants and the raw window in Debian's Firefox: every cycle saved once, the lean tab's share of pw-trace computed", async () => {
  const r = await runFirefoxCost({ cycles: 2, blocks: 1, variants: ['pw-trace', 'pw-tabs', 'pw-tabs-fission-off', 'bidi-pw-window'] });
  assert.deepEqual(r.raw.map((b) => [b.variant, b.cycles]), [['pw-trace', 2], ['pw-tabs', 2], ['pw-tabs-fission-off', 2], ['bidi-pw-window', 2]]);
  for (const b of r.raw) assert.ok(b.cpu_s > 0 && b.processes_seen > 1, `${b.variant}: ${b.cpu_s} CPU-s, ${b.processes_seen} processes`);
  // the shares these variants define, each the difference of its two medians
  assert.deepEqual(r.shares.map((s) => [s.from, s.to]), [['pw-trace', 'pw-tabs'], ['pw-tabs', 'pw-tabs-fission-off']]);
  const perCycle = (v: string) => r.raw.find((b) => b.variant === v)!.cpu_s / 2;
  assert.ok(Math.abs(r.shares[0]!.cpu_s_per_cycle - (perCycle('pw-trace') - perCycle('pw-tabs'))) < 0.002);
});
