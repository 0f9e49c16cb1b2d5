// The outside agent's browser: a fresh profile, a checked DevTools endpoint, and the start page in
// the default context, where another client (here Playwright over CDP, as browser-use and
// Stagehand do) finds it first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { launchAgentBrowser, requireOutsideAgentEndpoints } from '../../../pipeline/agents/agent-browser.ts';

test('Chromium: the endpoints answer, another client finds the harness page first, and the profile goes away', async () => {
  const launched = await launchAgentBrowser('chromium');
  let profile: string | undefined;
  try {
    assert.match(launched.endpoints.cdp_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(launched.endpoints.ws_endpoint!, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[0-9a-f-]+$/);
    const version = (await (await fetch(`${launched.endpoints.cdp_url}/json/version`)).json()) as { Browser: string };
    assert.match(version.Browser, /Chrome|Chromium/);
    const page = launched.context.pages()[0]!;
    await page.setContent('<h1>start page</h1>');
    const other = await chromium.connectOverCDP(launched.endpoints.cdp_url!);
    assert.equal(await other.contexts()[0]!.pages()[0]!.textContent('h1'), 'start page');
    await other.close(); // disconnects: the harness's page lives on
    assert.equal(await page.textContent('h1'), 'start page');
    profile = launched.profile;
    assert.ok(fs.existsSync(`${profile}/DevToolsActivePort`), 'the endpoint was read from this profile');
  } finally {
    await launched.close();
  }
  assert.equal(fs.existsSync(profile!), false, 'the profile is removed on close');
});

test('Firefox: outside agents are refused before a run, with the reason', () => {
  assert.throws(() => requireOutsideAgentEndpoints('firefox'), /one WebDriver BiDi session/);
  assert.doesNotThrow(() => requireOutsideAgentEndpoints('chromium'));
});
