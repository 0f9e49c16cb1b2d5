// An outside agent's browser (pipeline/agents/agent-browser.ts) through the fault proxy: the agent,
// connected over CDP (Chromium) or WebDriver BiDi (Firefox) with its own client, meets the same
// fault as the harness's policies; the harness's own observer reports never pass the proxy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { launchAgentBrowser } from '../../pipeline/agents/agent-browser.ts';
import { connectBiDi } from '../../pipeline/browser/bidi.ts';
import { startFaultProxy } from '../../proxy/src/index.ts';
import { startFormApp, formSpec } from './form-app.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('Chromium: an agent over CDP clicks the real Save in verification: the page says saved, the app never gets the write', async (t) => {
  const app = await startFormApp();
  const proxy = await startFaultProxy();
  t.after(async () => { await proxy.close(); await app.close(); });
  proxy.load({ spec: formSpec as never, layer: 'verification', severity: 1, seed: 'agent' });
  const launched = await launchAgentBrowser('chromium', { proxy: { server: proxy.url } });
  t.after(() => launched.close());
  await launched.context!.pages()[0]!.goto(`${app.origin}/form`);
  const agent = await chromium.connectOverCDP(launched.endpoints.cdp_url!);
  try {
    const page = agent.contexts()[0]!.pages()[0]!;
    await page.fill('#title', 'From the agent');
    await page.click('#submit');
    await page.getByRole('status').waitFor();
    assert.equal(app.writes.length, 0);
    assert.deepEqual(proxy.log.filter((e) => e.method === 'POST' && e.url.startsWith(app.origin)).map((e) => e.action), ['dropped']);
  } finally {
    await agent.close();
  }
});

test('Firefox: the harness opens the start page through the proxy (its observer reports go direct), then an agent over BiDi meets the action fault', async (t) => {
  const app = await startFormApp();
  const proxy = await startFaultProxy();
  t.after(async () => { await proxy.close(); await app.close(); });
  proxy.load({ spec: formSpec as never, layer: 'action', severity: 1, seed: 'agent' });
  const launched = await launchAgentBrowser('firefox', { proxy: { server: proxy.url } });
  t.after(() => launched.close());
  const moments: string[] = [];
  await launched.stage.open(`${app.origin}/form`, { surfaceHeld: false, moments: { successShown: () => moments.push('success'), revealed: () => moments.push('revealed') } });
  assert.deepEqual(moments, ['revealed'], 'the observer reported to the harness');
  assert.deepEqual(proxy.log.map((e) => `${e.action} ${new URL(e.url).pathname}`).filter((e) => !e.endsWith('/favicon.ico')), ['inject /form'], 'the page came through the proxy, the observer\'s reports did not');

  // the agent: a BiDi session of its own, a click on the target through WebDriver's input
  const agent = await connectBiDi(launched.endpoints.ws_endpoint!);
  try {
    await agent.send('session.new', { capabilities: {} });
    const { contexts } = await agent.send<{ contexts: { context: string }[] }>('browsingContext.getTree', { maxDepth: 0 });
    const context = contexts[0]!.context;
    const click = async () => {
      const { result } = await agent.send<{ result: { value: { x: number; y: number } } }>('script.evaluate', {
        expression: '(() => { const r = document.querySelector("#submit").getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; })()',
        target: { context }, awaitPromise: false, resultOwnership: 'none', serializationOptions: { maxObjectDepth: 1 },
      });
      const xy = Object.fromEntries((result as unknown as { value: [string, { value: number }][] }).value.map(([k, v]) => [k, v.value])) as { x: number; y: number };
      await agent.send('input.performActions', { context, actions: [{ type: 'pointer', id: 'mouse', actions: [
        { type: 'pointerMove', x: xy.x, y: xy.y }, { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 },
      ] }] });
    };
    await click();
    await sleep(500); // room for a submission to leave; the one POST after the second click below shows none did
    assert.deepEqual(proxy.log.filter((e) => e.method === 'POST' && e.url.startsWith(app.origin)), [], 'the first activation sent nothing');
    await click();
    while (app.writes.length === 0) await sleep(50);
    assert.deepEqual(proxy.log.filter((e) => e.method === 'POST' && e.url.startsWith(app.origin)).map((e) => e.action), ['pass']);
    await agent.send('session.end');
  } finally {
    await agent.close();
  }
});
