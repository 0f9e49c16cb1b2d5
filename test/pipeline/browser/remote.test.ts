// Remote browsers: with BROWSER_WS_ENDPOINT a run connects to a browser that runs already instead
// of launching one. A local Playwright browser server of each engine (launchServer with Debian's
// executables) and a plain CDP endpoint (chromium --remote-debugging-port) stand in for remote ones;
// the local executables are hidden during the runs, so a local launch would fail loudly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium, firefox } from 'playwright-core';
import { makeTree } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { runArm } from '../../../pipeline/kernel/run.ts';
import { layersPlan } from '../../../pipeline/layers/arms.ts';
import { chromiumArgs, launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { startBrowserServer } from '../../../pipeline/browser/server.ts';
import { endpointKind } from '../../../pipeline/browser/remote.ts';
import { setQuiet } from '../../../core/log.ts';

/** Runs fn with BROWSER_WS_ENDPOINT set and both local executables pointing nowhere. */
async function remotely<T>(endpoint: string, fn: () => Promise<T>): Promise<T> {
  const saved = { BROWSER_WS_ENDPOINT: process.env.BROWSER_WS_ENDPOINT, CHROMIUM_PATH: process.env.CHROMIUM_PATH, FIREFOX_PATH: process.env.FIREFOX_PATH };
  Object.assign(process.env, { BROWSER_WS_ENDPOINT: endpoint, CHROMIUM_PATH: '/nonexistent/chromium', FIREFOX_PATH: '/nonexistent/firefox' });
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

test('endpoint kinds: a Playwright server, a CDP endpoint, or a clear refusal', () => {
  assert.equal(endpointKind('ws://127.0.0.1:3000/rstack'), 'playwright');
  assert.equal(endpointKind('ws://127.0.0.1:9222/devtools/browser/abc'), 'cdp');
  assert.equal(endpointKind('http://127.0.0.1:9222'), 'cdp');
  assert.throws(() => endpointKind('127.0.0.1:3000'), /BROWSER_WS_ENDPOINT takes ws:\/\//);
});

for (const name of ['chromium', 'firefox'] as BrowserName[]) {
  test(`a ${name} run through the skeleton against a local Playwright browser server records the server's browser`, async (t) => {
    const tree = makeTree({ tasks: true });
    t.after(tree.cleanup);
    setQuiet(true);
    await freeze('test');
    const server = await startBrowserServer(name, { wsPath: '/rstack-test' });
    t.after(() => server.close());
    const endpoint = server.wsEndpoint();
    assert.match(endpoint, /^ws:\/\/127\.0\.0\.1:\d+\/rstack-test$/);
    // what the server runs, asked directly
    const direct = await (name === 'chromium' ? chromium : firefox).connect(endpoint);
    const version = direct.version();
    await direct.close();

    const result = await remotely(endpoint, () => runArm({ smoke: true, workers: 1, only: '^cards-baseline-01$' }, () => layersPlan('main', name)));
    assert.equal(result.rows.length, 3);
    for (const row of result.rows) {
      assert.deepEqual(row.browser, { name, version });
      assert.equal(row.vts, true, `${row.policy}: the baseline condition is done in the remote browser`);
    }
    // the run only disconnected: the server's browser still runs and takes the next client
    assert.equal(server.process().exitCode, null);
    const again = await (name === 'chromium' ? chromium : firefox).connect(endpoint);
    await again.close();

    // a client of the other engine is refused, naming what the server serves
    const other: BrowserName = name === 'chromium' ? 'firefox' : 'chromium';
    await assert.rejects(remotely(endpoint, () => launchBrowser(other)), (e: Error & { exitCode?: number }) => e.exitCode === 2 && e.message.includes(`serves ${name}, but this run is ${other}`));
  });
}

test('a plain CDP endpoint: Chromium connects over CDP and the browser outlives the run; Firefox is refused', async (t) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-cdp-'));
  const child = spawn('/usr/bin/chromium', [...chromiumArgs, '--headless=new', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  t.after(async () => {
    // the whole process group: Chromium's helper processes outlive a killed main process and go on
    // writing into the profile (rmSync then fails with ENOTEMPTY)
    const exited = child.exitCode === null ? new Promise((r) => child.once('exit', r)) : Promise.resolve();
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
    await exited;
    const groupAlive = () => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
    fs.rmSync(profile, { recursive: true, force: true });
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr.on('data', (d) => {
      text += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]!);
    });
    child.once('exit', () => reject(new Error(`chromium exited before listening: ${text}`)));
  });
  assert.equal(endpointKind(endpoint), 'cdp');
  const launched = await remotely(endpoint, () => launchBrowser('chromium'));
  assert.equal(launched.name, 'chromium');
  assert.match(launched.version, /^\d+\.\d+\.\d+\.\d+$/);
  const page = await (await launched.browser.newContext()).newPage();
  await page.setContent('<p id="x">over CDP</p>');
  assert.equal(await page.textContent('#x'), 'over CDP');
  await launched.browser.close();
  assert.equal(child.exitCode, null, 'closing a CDP connection leaves the browser running');
  await assert.rejects(remotely(endpoint, () => launchBrowser('firefox')), /CDP endpoint, which only Chromium speaks/);
});
