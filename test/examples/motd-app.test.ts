// shares the machine: it starts its own PHP app and fault proxy on free loopback ports, writes only
// to temporary folders (RSTACK_SCRATCH, FAULT_PROXY_STATE), and asserts outcomes, never how fast.
// docs/fault-proxy.md "Put your own app behind the fault proxy", followed on examples/apps/motd/: an
// app in PHP (PHP's built-in server) with a flat-file store, read by a command, no SQL anywhere.
// Step 5 in Chromium and Firefox (the proxy drops the publish while the page says "Published."),
// step 8 (make run-user-app's command: smoke rows scored by the store), step 9 (the verifier behind
// the proxy: plain verify fails a publish the store holds; verifyWithRetry reads the store and stops).
// The example folder is copied so that its origin can name a free port.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { codeRoot } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { browserNames, launchBrowser } from '../../pipeline/browser/launch.ts';
import { attach, verifyWithRetry } from '../../verifier/src/index.ts';
import { publishContract } from '../../examples/apps/motd/publish-contract.ts';
import { run, start } from '../helpers/run.ts';
import { freePort } from '../helpers/free-port.ts';
import type { Page } from 'playwright-core';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
// PHP's CLI is not among make setup's packages: apt-get install -y php-cli
const noPhp = spawnSync('php', ['--version']).status !== 0 ? 'php is not installed (apt-get install -y php-cli)' : false;
let work: string;
let appDir: string;
let appPort: number;
let app: ChildProcess | undefined;

const stored = () => execFileSync('php', ['read.php', 'message'], { cwd: appDir }).toString().trim();
const reset = () => execFileSync('cp', ['seed.txt', 'store.txt'], { cwd: appDir });

/** the proxy started from the command line for this condition; stopped by the returned function, which gives its events */
async function proxyUp(options: string[]) {
  const port = await freePort();
  const env = { FAULT_PROXY_STATE: path.join(work, 'fault-proxy') };
  const up = await run(bin, ['fault-proxy', '--spec', path.join(appDir, 'spec.json'), ...options, '--port', String(port)], { env });
  assert.equal(up.exitCode, 0, up.stderr);
  return {
    url: `http://127.0.0.1:${port}`,
    async down() {
      const down = await run(bin, ['fault-proxy-stop'], { env });
      assert.equal(down.exitCode, 0, down.stderr);
      return fs.readFileSync(path.join(work, 'fault-proxy', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { write: boolean; method: string; url: string; status: number | null; action: string });
    },
  };
}

before(async () => {
  if (noPhp) return;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-motd-'));
  appDir = path.join(work, 'motd');
  fs.cpSync(path.join(codeRoot, 'examples', 'apps', 'motd'), appDir, { recursive: true, filter: (f) => !/store\.txt(\.tmp)?$/.test(f) });
  appPort = await freePort();
  const appFile = path.join(appDir, 'app.json');
  fs.writeFileSync(appFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(appFile, 'utf8')), origin: `http://127.0.0.1:${appPort}` }));
  // step 1: PHP's built-in server, index.php its router
  const started = start('php', ['-S', `127.0.0.1:${appPort}`, 'index.php'], { cwd: appDir });
  app = started.child;
  await new Promise<void>((resolve, reject) => {
    app!.stderr!.on('data', (d) => { if (String(d).includes('Development Server')) resolve(); });
    started.ended.then((e) => reject(new Error(`the PHP app exited: ${e.stderr}`)), reject);
  });
});

after(() => {
  app?.kill();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

for (const name of browserNames) {
  test(`step 5, ${name}: behind \`fault-proxy --layer verification\`, the page says Published. and the store keeps its seeded message`, { skip: noPhp }, async () => {
    reset();
    const proxy = await proxyUp(['--layer', 'verification', '--severity', '1']);
    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url } });
    try {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`http://127.0.0.1:${appPort}/`);
      await page.getByRole('textbox', { name: 'Message' }).fill('Closed on Monday');
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.locator('#notice', { hasText: 'Published.' }).waitFor();
    } finally {
      await browser.close();
    }
    const events = await proxy.down();
    assert.equal(stored(), 'Welcome', 'the proxy dropped the write: the store was never asked');
    assert.deepEqual(events.filter((e) => e.write).map((e) => [e.method, new URL(e.url).pathname, e.status, e.action]), [['POST', '/publish', 303, 'dropped']]);
  });

  test(`step 9, ${name}: under lost-response 3, plain verify fails a publish the store holds; verifyWithRetry reads the store and stops, already-done`, { skip: noPhp }, async () => {
    const proxy = await proxyUp(['--transport', 'lost-response', '--transport-severity', '3']);
    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url } });
    // the example's own contract (examples/apps/motd/publish-contract.ts), the one docs/fault-proxy.md runs
    const contract = (page: Page, message: string) => publishContract(page, message, stored);
    const open = async (message: string) => {
      reset();
      const page = await (await browser.newContext()).newPage();
      await page.goto(`http://127.0.0.1:${appPort}/`);
      await page.getByLabel('Message').fill(message);
      return page;
    };
    try {
      const first = await open('Closed on Monday');
      const plain = attach(first);
      const record = await plain.verify(contract(first, 'Closed on Monday'));
      plain.detach();
      assert.equal(record.state, 'failed', 'the answer was lost: the transport evidence is a network error');
      assert.equal(stored(), 'Closed on Monday', 'while the store holds the publish');
      const second = await open('Open 9 to 5');
      const result = await verifyWithRetry(attach(second), second, contract(second, 'Open 9 to 5'), { attempts: 3, settleMs: 500 });
      assert.deepEqual([result.state, result.ended, result.records.length], ['closed', 'already-done', 1]);
      assert.equal(stored(), 'Open 9 to 5');
    } finally {
      await browser.close();
      await proxy.down();
    }
  });
}

test('step 8: run-user-app gives smoke rows of the motd app, scored by its postcondition command, with the per-severity table', { skip: noPhp }, async () => {
  const scratch = path.join(work, 'scratch');
  const only = 'motd-message-(baseline-0|state-2|verification-1)-01';
  const ran = await run(bin, ['run-user-app', '--app', path.join(appDir, 'app.json'), '--smoke', '--only', only], { env: { RSTACK_SCRATCH: scratch } });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stdout, /layers\/real-apps motd chromium: 9 smoke rows in /);
  assert.match(ran.stdout, /\nPer severity: [^\n]*\npolicy +layer +severity +n +as +vts +fc +error_n\n/);
  assert.match(ran.stdout, /\nselector-only +verification +1 +1 +1\/1 +0\/1 +1\/1 +0\n/, 'the table has the verification row of the selector-only policy: shown saved, not stored');
  assert.doesNotMatch(ran.stdout + ran.stderr, /Failed to handle request/);
  const dir = path.join(scratch, 'data', 'excluded', 'layers', 'real-apps');
  const files = fs.readdirSync(dir).filter((f) => f.startsWith('layers-real-apps-motd-chromium-smoke-') && f.endsWith('.jsonl') && !f.includes('failed-attempts'));
  assert.equal(files.length, 1);
  const rows = readJsonl<Record<string, any>>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.equal(rows.length, 9);
  for (const r of rows) {
    assert.deepEqual([r.app, r.smoke, r.template, r.error], ['motd', true, 'motd-message', null], `${r.condition_id} ${r.policy}`);
  }
  const row = (layer: string, policy: string) => rows.find((r) => r.layer === layer && r.policy === policy)!;
  for (const p of ['selector-only', 'semantic-recovery', 'verification-aware']) {
    assert.deepEqual([row('baseline', p).apparent_success, row('baseline', p).vts], [true, true], `baseline ${p}`);
  }
  // Verification is the seed's construct (proxy/faults/layers.json): the policies that stop at the notice
  // keep the seeded message; verification-aware reads it back and saves again, and its second save is the app's
  for (const p of ['selector-only', 'semantic-recovery']) {
    assert.equal(row('verification', p).vts, false, `verification ${p}`);
    assert.equal(row('verification', p).persisted.value, 'Welcome');
  }
  assert.deepEqual(row('verification', 'verification-aware').real_app.writes.map((w: any) => w.action).slice(0, 2), ['dropped', 'pass']);
  assert.equal(row('verification', 'verification-aware').vts, true);
  assert.equal(row('state', 'verification-aware').vts, true);
});
