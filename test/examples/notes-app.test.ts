// shares the machine: it starts its own notes app and fault proxy on free loopback ports, writes only
// to temporary folders (RSTACK_SCRATCH, FAULT_PROXY_STATE), and asserts outcomes, never how fast.
// docs/fault-proxy.md "Put your own app behind the fault proxy", followed on examples/apps/notes/ (an
// app the project does not ship), in Chromium: the spec's proxy drops the save while the page says
// "Saved." (step 5), and make run-user-app's command gives schema-valid smoke rows scored by the
// app's own store (step 8). The example folder is copied so that its origin can name a free port.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { codeRoot } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { launchBrowser } from '../../pipeline/browser/launch.ts';
import { run, start } from '../helpers/run.ts';
import { freePort } from '../helpers/free-port.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
let work: string;
let appDir: string;
let appPort: number;
let app: ChildProcess | undefined;

const stored = () => execFileSync('node', ['read.mjs', 'title'], { cwd: appDir, env: { ...process.env, NOTES_STORE: path.join(work, 'notes.json') } }).toString().trim();

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-notes-'));
  appDir = path.join(work, 'notes');
  fs.cpSync(path.join(codeRoot, 'examples', 'apps', 'notes'), appDir, { recursive: true, filter: (f) => !f.endsWith('notes.json') });
  appPort = await freePort();
  const appFile = path.join(appDir, 'app.json');
  const description = JSON.parse(fs.readFileSync(appFile, 'utf8'));
  fs.writeFileSync(appFile, JSON.stringify({ ...description, origin: `http://127.0.0.1:${appPort}` }));
  process.env.NOTES_STORE = path.join(work, 'notes.json');
  // step 1
  const started = start('node', ['server.mjs'], { cwd: appDir, env: { PORT: String(appPort) } });
  app = started.child;
  await new Promise<void>((resolve, reject) => {
    app!.stdout!.on('data', (d) => { if (String(d).includes('notes: http://127.0.0.1:')) resolve(); });
    started.ended.then((e) => reject(new Error(`the notes app exited: ${e.stderr}`)), reject);
  });
});

after(async () => {
  app?.kill();
  delete process.env.NOTES_STORE;
  fs.rmSync(work, { recursive: true, force: true });
});

test('step 5: behind `fault-proxy --layer verification`, the page says Saved. and the store keeps its seeded title', async () => {
  execFileSync('node', ['reset.mjs'], { cwd: appDir });
  const proxyPort = await freePort();
  const env = { FAULT_PROXY_STATE: path.join(work, 'fault-proxy') };
  const up = await run(bin, ['fault-proxy', '--spec', path.join(appDir, 'spec.json'), '--layer', 'verification', '--severity', '1', '--port', String(proxyPort)], { env });
  assert.equal(up.exitCode, 0, up.stderr);
  assert.match(up.stdout, new RegExp(`http://127\\.0\\.0\\.1:${proxyPort}`));
  const { browser } = await launchBrowser('chromium', null, { proxy: { server: `http://127.0.0.1:${proxyPort}` } });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://127.0.0.1:${appPort}/`);
    await page.getByRole('textbox', { name: 'Title' }).fill('Groceries');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#notice', { hasText: 'Saved.' }).waitFor();
  } finally {
    await browser.close();
    const down = await run(bin, ['fault-proxy-stop'], { env });
    assert.equal(down.exitCode, 0, down.stderr);
  }
  assert.equal(stored(), 'Untitled', 'the proxy dropped the write: the store was never asked');
  const events = fs.readFileSync(path.join(work, 'fault-proxy', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const writes = events.filter((e) => e.write);
  assert.deepEqual(writes.map((e) => [e.method, new URL(e.url).pathname, e.status, e.action]), [['POST', '/save', 303, 'dropped']]);
});

test('step 8: run-user-app gives smoke rows of the notes app, scored by its postcondition command', async () => {
  const scratch = path.join(work, 'scratch');
  const only = 'notes-title-(baseline-0|state-2|verification-1)-01';
  const ran = await run(bin, ['run-user-app', '--app', path.join(appDir, 'app.json'), '--only', only], { env: { RSTACK_SCRATCH: scratch } });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /layers\/real-apps notes chromium: 9 smoke rows in /);
  const dir = path.join(scratch, 'data', 'excluded', 'layers', 'real-apps');
  const files = fs.readdirSync(dir).filter((f) => f.startsWith('layers-real-apps-notes-chromium-smoke-') && f.endsWith('.jsonl') && !f.includes('failed-attempts'));
  assert.equal(files.length, 1);
  const rows = readJsonl<Record<string, any>>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.equal(rows.length, 9);
  assert.ok(!fs.existsSync(path.join(scratch, 'data', 'raw')), 'nothing registered');
  for (const r of rows) {
    assert.equal(r.app, 'notes');
    assert.equal(r.smoke, true);
    assert.equal(r.template, 'notes-title');
    assert.equal(r.error, null, `${r.condition_id} ${r.policy}: ${r.error}`);
  }
  const row = (layer: string, policy: string) => rows.find((r) => r.layer === layer && r.policy === policy)!;
  // baseline: every policy's save is stored
  for (const p of ['selector-only', 'semantic-recovery', 'verification-aware']) assert.deepEqual([row('baseline', p).apparent_success, row('baseline', p).vts], [true, true], `baseline ${p}`);
  // verification (the seed's construct, proxy/faults/layers.json): the notice shows at once, the first save never
  // reaches the app; the policies that stop at the notice keep the seeded title, verification-aware reads it back,
  // saves again, and the second save (severity 1) is the app's
  for (const p of ['selector-only', 'semantic-recovery']) {
    const r = row('verification', p);
    assert.equal(r.vts, false, `verification ${p}`);
    assert.equal(r.persisted.value, 'Untitled');
    assert.ok(r.real_app.writes.length >= 1 && r.real_app.writes.every((w: any) => w.action === 'dropped' && w.reached_app === null), `verification ${p}: every write dropped`);
  }
  assert.equal(row('verification', 'selector-only').false_completion, true);
  const repaired = row('verification', 'verification-aware');
  assert.deepEqual(repaired.real_app.writes.map((w: any) => w.action).slice(0, 2), ['dropped', 'pass'], 'verification verification-aware: its second save reached the app');
  assert.deepEqual([repaired.vts, repaired.persisted.value], [true, repaired.target.value]);
  // state: the write answered at once and held; the policy that reads the store back waits for it
  assert.ok(row('state', 'selector-only').real_app.writes.some((w: any) => w.action === 'answered'));
  assert.equal(row('state', 'verification-aware').vts, true);
  assert.equal(row('state', 'verification-aware').persisted.value, row('state', 'verification-aware').target.value);
});
