// shares the machine: two real applications (mariadbd + apache2 each) and their copies, Chromium
// make bench's real-applications slice (issue 49 item 2) on a tiny slice, as a user runs it: the
// one-worker harness the registered runs used against ours with two workers (worker 1 on its own
// copy of each app), the same units in both, the restore before each condition and the CPU per trace
// of PHP (apache2), MariaDB and the browser in results.json, nothing registered touched; and the
// /proc grouping it reads CPU with. The apps run on this test's own ports (8803, 8804; copies at +10)
// and state folders, started from nothing and stopped after. No timed assertion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { sha256 } from '../../../core/hash.ts';
import type { LayersRow } from '../../../core/contracts.ts';
import { groupOfName, sampleCpu } from '../../../pipeline/bench/cpu.ts';

const registeredState = () =>
  ['data/runs.jsonl', 'manifests/ledger.jsonl', 'manifests/data.sha256']
    .map((f) => path.join(codeRoot, f))
    .map((f) => `${f}:${fs.existsSync(f) ? sha256(fs.readFileSync(f)) : '-'}`)
    .concat(['data/raw', 'data/excluded'].map((d) => `${d}:${fs.readdirSync(path.join(codeRoot, d), { recursive: true }).length}`));

test('the CPU groups: a process by its own name, else by its nearest named ancestor; a busy child of this process is the harness\'s', async () => {
  assert.equal(groupOfName('apache2'), 'php');
  assert.equal(groupOfName('mariadbd'), 'mariadb');
  assert.equal(groupOfName('mariadb'), 'mariadb client');
  assert.equal(groupOfName('headless_shell'), 'browser');
  assert.equal(groupOfName('chromium'), 'browser');
  assert.equal(groupOfName('Web Content'), 'browser');
  assert.equal(groupOfName('node'), null);
  const sampler = sampleCpu({ everyMs: 20 });
  // a fixed amount of work, then it waits for its stdin to close: seen alive by the last sample
  const child = spawn(process.execPath, ['-e', 'let x = 0; for (let i = 0; i < 3e8; i++) x += i; process.stdout.write("done\\n"); process.stdin.resume();'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const cpu = sampler.stop();
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  assert.ok(cpu.harness > 0.05, `the busy child's CPU is counted: ${JSON.stringify(cpu)}`);
  assert.equal(cpu.php + cpu.mariadb + cpu.browser, 0, 'no apache2, mariadbd or browser under this process');
});

test('a process outside this tree that ran before the block, named by roots() only later, counts from when it was seen, not from its start', async () => {
  // an orphan (its shell exits at once): busy for a fixed amount of work, then idle until killed
  const shell = spawn('sh', ['-c', `${process.execPath} -e 'let x = 0; for (let i = 0; i < 3e8; i++) x += i; setInterval(() => {}, 1000);' >/dev/null 2>&1 & echo $!`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = Number((await new Promise<string>((resolve) => shell.stdout.once('data', (d) => resolve(String(d))))).trim());
  try {
    // wait until its busy part is over: its CPU stops growing between two reads
    const ticks = () => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[11]);
    for (let last = -1; ;) { const now = ticks(); if (now === last && now > 0) break; last = now; await new Promise((r) => setTimeout(r, 300)); }
    const before = ticks() / 100;
    let known: number[] = [];
    const sampler = sampleCpu({ roots: () => known, everyMs: 20 });
    await new Promise((r) => setTimeout(r, 60));
    known = [pid];
    await new Promise((r) => setTimeout(r, 200));
    const cpu = sampler.stop();
    // not under this process or a named one: other
    assert.ok(cpu.other < before / 2, `the orphan's ${before} s before it was seen are not counted: ${JSON.stringify(cpu)}`);
  } finally {
    process.kill(pid, 'SIGKILL');
  }
});

test('make bench --slices real-apps-chromium: results.json holds both harnesses on the same units, the restore and CPU by process, nothing registered touched', { timeout: 1_200_000 }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-bench-real-apps-'));
  const states = ['wp', 'mw'].map((n) => { const d = path.join(tmp, n); fs.mkdirSync(d, { mode: 0o755 }); fs.chmodSync(tmp, 0o755); return d; });
  const out = path.join(tmp, 'results.json');
  const scratch = path.join(tmp, 'rows');
  const before = registeredState();
  try {
    const ended = await run(path.join(codeRoot, 'bin/rstackbench'), [
      'bench', '--slices', 'real-apps-chromium', '--real-apps-size', '6', '--blocks', '2', '--real-apps-workers', '2', '--verifier-actions', '0', '--out', out, '--scratch', scratch,
    ], { env: { LAYERS_WORDPRESS_PORT: '8803', LAYERS_WORDPRESS_STATE: states[0]!, MEDIAWIKI_PORT: '8804', MEDIAWIKI_STATE: states[1]!, REAL_APPS_WORKER_PORT_STEP: '10' } });
    assert.equal(ended.exitCode, 0, ended.stderr);
    assert.deepEqual(registeredState(), before, 'data/, the run log, the ledger and the manifests are untouched');
    const results = JSON.parse(fs.readFileSync(out, 'utf8'));
    const s = results.slices['real-apps-chromium'];
    assert.equal(s.units, 6);
    assert.match(s.registered_file, /^data\/raw\/layers\/real-apps\/layers-real-apps-chromium-/);
    assert.deepEqual([s.naive.workers, s.ours.workers], [1, 2]);
    for (const h of ['naive', 'ours']) {
      assert.equal(s[h].traces, 6);
      assert.equal(typeof s[h].reset_ms_median, 'number', `${h}: the restore before each condition`);
      for (const g of ['php', 'mariadb', 'browser']) assert.ok(s[h].cpu_s_per_trace[g] > 0, `${h}: ${g}'s CPU per trace: ${JSON.stringify(s[h].cpu_s_per_trace)}`);
    }
    const naive = readJsonl<LayersRow>(path.join(scratch, 'real-apps-chromium-naive.jsonl'), { schema: 'trace' });
    const ours = readJsonl<LayersRow>(path.join(scratch, 'real-apps-chromium-ours.jsonl'), { schema: 'trace' });
    const units = (rows: LayersRow[]) => rows.map((r) => `${r.condition_id}|${r.policy}`).sort();
    assert.deepEqual(units(naive), units(ours), 'both harnesses ran the same units');
    assert.ok(naive.every((r) => r.arm === 'real-apps' && r.smoke === true && typeof r.real_app?.reset_ms === 'number'));
    assert.equal(typeof s.flips_unflagged, 'number');
    // the bench stops what it started: no apache2 (the originals' and the copy's) or mariadbd left
    const pidFiles = states.flatMap((d) => [path.join(d, 'apache2.pid'), path.join(d, 'mariadb.pid'), ...['8813', '8814'].map((p) => path.join(d, 'workers', p, 'apache2.pid'))]);
    assert.deepEqual(pidFiles.filter((f) => fs.existsSync(f) && isAlive(Number(fs.readFileSync(f, 'utf8').trim()))), []);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try { process.kill(pid, 0); return true; } catch { return false; }
}
