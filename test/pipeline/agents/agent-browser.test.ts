// The outside agent's browser: a fresh profile, a checked endpoint, and the start page where
// another client finds it first — in Chromium Playwright over CDP (as browser-use and Stagehand
// do), in Firefox a WebDriver BiDi session of its own once the harness's has ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { launchAgentBrowser } from '../../../pipeline/agents/agent-browser.ts';
import { connectBiDi } from '../../../pipeline/browser/bidi.ts';

test('Chromium: the endpoints answer, another client finds the harness page first, and the profile goes away', async () => {
  const launched = await launchAgentBrowser('chromium');
  let profile: string | undefined;
  try {
    assert.match(launched.endpoints.cdp_url!, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(launched.endpoints.ws_endpoint!, /^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/[0-9a-f-]+$/);
    const version = (await (await fetch(`${launched.endpoints.cdp_url}/json/version`)).json()) as { Browser: string };
    assert.match(version.Browser, /Chrome|Chromium/);
    const page = launched.context!.pages()[0]!;
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

test('Firefox: the harness leaves no session behind, another client makes its own and finds the start page, and the profile goes away', async () => {
  const launched = await launchAgentBrowser('firefox');
  let profile: string | undefined;
  try {
    assert.equal(launched.endpoints.cdp_url, undefined, 'no CDP in Firefox');
    assert.match(launched.endpoints.ws_endpoint!, /^ws:\/\/127\.0\.0\.1:\d+\/session$/);
    assert.match(launched.version, /^\d+\.\d+/);
    assert.equal(launched.context, undefined, 'the harness holds no Playwright context in Firefox');
    const moments: string[] = [];
    const { startUrl, page } = await launched.stage.open('data:text/html,<title>start</title><main id=app></main>', {
      surfaceHeld: false,
      moments: { successShown: () => moments.push('success'), revealed: () => moments.push('revealed') },
    });
    assert.equal(page, undefined);
    assert.match(startUrl, /^data:text\/html/);
    assert.deepEqual(moments, ['revealed'], 'the observer reported the surface');
    // the harness's session has ended: another client's session.new succeeds (Firefox takes one at a time)
    const other = await connectBiDi(launched.endpoints.ws_endpoint!);
    await other.send('session.new', { capabilities: {} });
    const tree = await other.send<{ contexts: { url: string }[] }>('browsingContext.getTree', { maxDepth: 0 });
    assert.deepEqual(tree.contexts.map((c) => c.url), [startUrl]);
    await assert.rejects(connectBiDi(launched.endpoints.ws_endpoint!).then((third) => third.send('session.new', { capabilities: {} })), /session not created/, 'one session at a time');
    await other.send('session.end');
    await other.close();
    profile = launched.profile;
    assert.ok(fs.existsSync(`${profile}/user.js`), 'the fresh profile holds the harness prefs');
  } finally {
    await launched.close();
  }
  assert.equal(fs.existsSync(profile!), false, 'the profile is removed on close');
});
