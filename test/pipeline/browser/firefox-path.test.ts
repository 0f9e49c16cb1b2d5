// The two paths a Firefox trial can take (pipeline/browser/firefox-path.ts), in Debian's Firefox: on
// the lean path a page is a tab in the foreground of a host window that holds no other page, and site
// isolation is off, so what a page can see of itself is what it sees in a window of its own on
// Playwright's path, at three pages at once as alone: shown, focused, animated, a history of one
// entry, the same sizes. Host windows are made only when all are busy and reused after. The choice is
// refused when it is not one, and where it cannot work (a remote browser). An arm takes the lean path
// by default only where a frozen amendment adopted it after the arm's check passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, launchOptions } from '../../../pipeline/browser/launch.ts';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { LEAN_PATH_ADOPTED, firefoxPathFor, firefoxPathFromEnv, hostWindowCount, leanPathAdopted } from '../../../pipeline/browser/firefox-path.ts';
import { readFrontMatter } from '../../../core/front-matter.ts';
import { codeRoot } from '../../../core/paths.ts';
import { readLedger } from '../../../pipeline/kernel/ledger.ts';
import { startFixtureServer, sendHtml } from '../../../fixtures/server.ts';
import { UsageError } from '../../../core/errors.ts';

const PAGE = '<!doctype html><title>seen</title><button id="b">b</button>';

/** What a page sees of itself, after one animation frame (none comes to a page that is not shown). */
async function seen(browser: Browser, origin: string, at: number) {
  const contexts = await Promise.all(Array.from({ length: at }, () => browser.newContext()));
  try {
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    await Promise.all(pages.map((p) => p.goto(`${origin}/`)));
    return await Promise.all(pages.map((p) => p.evaluate(() => new Promise((resolve) => {
      const frame = setTimeout(() => resolve('no animation frame within 5 s'), 5000);
      requestAnimationFrame(() => {
        clearTimeout(frame);
        resolve({
          visibility: document.visibilityState, hidden: document.hidden, focus: document.hasFocus(), history: history.length,
          opener: window.opener === null, inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight], screen: [screen.width, screen.height],
        });
      });
    }))));
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
}

test("Firefox: a page sees the same of itself on Playwright's path (a window) and on the lean one (a tab in a host window), alone and three at once; host windows are reused", async () => {
  const server = await startFixtureServer();
  server.load({ stateAt: () => null, routes: { 'GET /': (_q: unknown, res: never) => sendHtml(res, PAGE) } } as never);
  const windows = await launchBrowser('firefox', null, { firefoxPath: 'playwright' });
  const tabs = await launchBrowser('firefox', null, { firefoxPath: 'lean' });
  try {
    assert.equal(hostWindowCount(windows.browser), null, "Playwright's path makes no host window");
    assert.equal(hostWindowCount(tabs.browser), 0, 'no host window before the first page');
    const alone = await seen(windows.browser, server.origin, 1);
    assert.deepEqual((alone[0] as { visibility: string }).visibility, 'visible', JSON.stringify(alone));
    assert.deepEqual(await seen(tabs.browser, server.origin, 1), alone);
    assert.equal(hostWindowCount(tabs.browser), 1);
    const three = await seen(windows.browser, server.origin, 3);
    // the focus goes to one window of three: which one is the window manager's, on both paths
    const unfocused = (r: unknown[]) => r.map((x) => ({ ...(x as object), focus: null }));
    assert.deepEqual(unfocused(three), unfocused([alone[0], alone[0], alone[0]]));
    assert.deepEqual(unfocused(await seen(tabs.browser, server.origin, 3)), unfocused(three));
    assert.equal(hostWindowCount(tabs.browser), 3, 'one host window per page open at once');
    await seen(tabs.browser, server.origin, 2);
    assert.equal(hostWindowCount(tabs.browser), 3, 'free host windows are reused');
  } finally {
    await windows.browser.close();
    await tabs.browser.close();
    await server.close();
  }
});

test('FIREFOX_TRIAL_PATH: playwright by default, lean when asked, anything else refused; lean refused for a browser that runs elsewhere', async () => {
  assert.equal(firefoxPathFromEnv({}), 'playwright');
  // FIREFOX_PATH names Firefox's executable (launch.ts): it says nothing of the trial's path
  assert.equal(firefoxPathFromEnv({ FIREFOX_PATH: '/usr/bin/firefox-esr' }), 'playwright');
  // site isolation off is the lean path's preference alone, beside a proxy's
  const prefsOf = (o: unknown) => (o as { firefoxUserPrefs?: Record<string, unknown> }).firefoxUserPrefs ?? {};
  assert.equal(prefsOf(launchOptions('firefox', { firefoxPath: 'lean' }))['fission.webContentIsolationStrategy'], 0);
  assert.equal(prefsOf(launchOptions('firefox'))['fission.webContentIsolationStrategy'], undefined);
  const proxied = prefsOf(launchOptions('firefox', { firefoxPath: 'lean', proxy: { server: 'http://127.0.0.1:9' } }));
  assert.equal(proxied['fission.webContentIsolationStrategy'], 0);
  assert.ok(Object.keys(proxied).some((k) => k.startsWith('network.proxy.')), JSON.stringify(proxied));
  assert.equal(firefoxPathFromEnv({ FIREFOX_TRIAL_PATH: 'lean' }), 'lean');
  assert.throws(() => firefoxPathFromEnv({ FIREFOX_TRIAL_PATH: 'tabs' }), (e: unknown) => e instanceof UsageError && /FIREFOX_TRIAL_PATH takes playwright or lean, not "tabs"/.test(e.message));
  await assert.rejects(launchBrowser('firefox', 'ws://127.0.0.1:9/x', { firefoxPath: 'lean' }), (e: unknown) => e instanceof UsageError && /FIREFOX_TRIAL_PATH=lean/.test(e.message));
});

// what each adoption rests on: the arm's check amendment and the arm's line in the check's result
const checks: Record<string, { check: string; result: string; arm: string }> = {
  'layers/main': { check: 'layers-firefox-path-check', result: 'bench/firefox-path/check.json', arm: 'main-firefox' },
  'layers/horizon': { check: 'layers-firefox-path-check', result: 'bench/firefox-path/check.json', arm: 'horizon-firefox' },
  'evidence/arm-a': { check: 'evidence-arm-a-firefox-path-check', result: 'bench/firefox-path/check.json', arm: 'arm-a' },
  'evidence/arm-b/wordpress-local': { check: 'evidence-arm-b-firefox-path-check', result: 'bench/firefox-path/check-arm-b.json', arm: 'arm-b' },
};

test('the lean path is an arm\'s default only where a frozen amendment adopted it, after its check passed; FIREFOX_TRIAL_PATH still decides', () => {
  const frozen = readLedger().at(-1)!.entry.files;
  for (const [key, file] of Object.entries(LEAN_PATH_ADOPTED)) {
    const on = checks[key];
    assert.ok(on, `${key}: adopted by ${file} with no check this test knows of`);
    const text = fs.readFileSync(path.join(codeRoot, file));
    assert.equal(frozen[file], createHash('sha256').update(text).digest('hex'), `${file}: frozen in the ledger's last entry as it is now`);
    assert.equal(readFrontMatter(path.join(codeRoot, file)).amends, on.check, `${file} amends the check it names`);
    const result = JSON.parse(fs.readFileSync(path.join(codeRoot, on.result), 'utf8')) as { arms: { arm: string; passes: boolean }[] };
    assert.equal(result.arms.find((a) => a.arm === on.arm)?.passes, true, `${on.result}: ${on.arm} passed its check`);
    const [study, arm, scope] = key.split('/') as [string, string, string | undefined];
    assert.equal(leanPathAdopted(study, arm, scope), file);
    assert.equal(firefoxPathFor(study, arm, {}, scope), 'lean');
    assert.equal(firefoxPathFor(study, arm, { FIREFOX_TRIAL_PATH: 'playwright' }, scope), 'playwright');
    // a browser that runs already cannot take it (launch.ts refuses lean there): Playwright's path, which the adoption allows
    assert.equal(firefoxPathFor(study, arm, { BROWSER_WS_ENDPOINT: 'ws://127.0.0.1:9/x' }, scope), 'playwright');
  }
  // what no check covered stays on Playwright's path: another arm, another part of an adopted one
  for (const [study, arm, scope] of [['layers', 'transport'], ['layers', 'agent'], ['evidence', 'arm-b-contracts'], ['evidence', 'arm-b', 'wordpress-editor-b'], ['evidence', 'arm-b']] as [string, string, string?][]) {
    assert.equal(leanPathAdopted(study, arm, scope), null, `${study}/${arm}${scope ? `/${scope}` : ''}`);
    assert.equal(firefoxPathFor(study, arm, {}, scope), 'playwright');
    assert.equal(firefoxPathFor(study, arm, { FIREFOX_TRIAL_PATH: 'lean' }, scope), 'lean', 'a rerun may still ask for it');
  }
});
