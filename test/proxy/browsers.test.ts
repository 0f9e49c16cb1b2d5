// The five layers through the fault proxy in both real browsers (Debian's Chromium over CDP, Firefox
// ESR over WebDriver BiDi), on a small app of the test's own on 127.0.0.1: each layer at severity 1
// has the effect it is designed to have, and nothing but the fault shows: the same window globals,
// the same DOM and scripts, the same headers but Content-Length, the same secure context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, browserNames } from '../../pipeline/browser/launch.ts';
import { startFaultProxy, planFor, type FaultProxy } from '../../proxy/src/index.ts';
import type { Layer } from '../../core/layers.ts';
import { startFormApp, formSpec, type FormApp } from './form-app.ts';

const save = { role: 'button', name: 'Save Changes' } as const;
/** the writes to the app (Chromium posts to its own services now and then, which the proxy refuses) */
const posts = (proxy: FaultProxy, app: FormApp) => proxy.log.filter((e) => e.method === 'POST' && e.url.startsWith(app.origin));

for (const name of browserNames) {
  test(`${name}: each layer through the proxy, and nothing else shows`, async (t) => {
    const app = await startFormApp();
    const proxy = await startFaultProxy();
    const browsers: Browser[] = [];
    t.after(async () => { for (const b of browsers) await b.close(); await proxy.close(); await app.close(); });
    const through = (await launchBrowser(name, null, { proxy: { server: proxy.url } })).browser;
    const plain = (await launchBrowser(name, null)).browser;
    browsers.push(through, plain);

    /** a fresh page in a fresh context, the proxy on the condition, the app as seeded */
    const fresh = async (layer: Layer, browser = through): Promise<Page> => {
      proxy.load({ spec: formSpec as never, layer, severity: layer === 'baseline' ? 0 : 1, seed: `${name}-${layer}` });
      app.writes.length = 0;
      app.title = 'Original title';
      const context = await browser.newContext();
      t.after(() => context.close());
      return context.newPage();
    };

    await t.test('invisible: with and without the proxy, the same globals, DOM, scripts, headers (but Content-Length) and secure context', async () => {
      const look = async (page: Page) => {
        const response = (await page.goto(`${app.origin}/form`))!;
        const headers = (await response.headersArray()).map((h) => `${h.name.toLowerCase()}: ${h.value}`)
          .filter((h) => !/^(date|content-length):/.test(h)).sort();
        const seen = await page.evaluate(() => ({
          // Playwright's own BiDi helper, which it installs into every Firefox page after each
          // navigation (BidiBrowserContext.initialize: extendInjectedScript), proxy or not, racing
          // this read; nothing else is left out
          globals: Object.keys(window).filter((k) => k !== '__pw_bidiInsertText').sort(),
          scripts: Array.from(document.scripts, (s) => s.outerHTML),
          dom: document.documentElement.outerHTML,
          secure: isSecureContext,
          sheets: document.adoptedStyleSheets.length,
        }));
        return { headers, ...seen };
      };
      const without = await look(await fresh('baseline', plain));
      for (const layer of ['action', 'baseline'] as const) {
        const page = await fresh(layer);
        const withProxy = await look(page);
        assert.deepEqual(withProxy, without, `${layer}: the page through the proxy is the page without it`);
        if (layer === 'action') assert.ok(proxy.log.some((e) => e.action === 'inject'), 'the page fault was there');
      }
    });
    await t.test('baseline: a page on 127.0.0.1 is reached through the proxy (its log sees it), and the write reaches the app', async () => {
      const page = await fresh('baseline');
      await page.goto(`${app.origin}/form`);
      assert.ok(proxy.log.some((e) => e.action === 'pass' && e.url === `${app.origin}/form` && e.status === 200), JSON.stringify(proxy.log));
      await page.fill('#title', 'Baseline title');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      assert.deepEqual(app.writes.map((w) => w.title), ['Baseline title']);
    });

    await t.test('verification: the page shows the success, the app never receives the write', async () => {
      const page = await fresh('verification');
      await page.goto(`${app.origin}/form`);
      await page.fill('#title', 'Never stored');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      assert.equal((await page.getByRole('status').textContent())?.trim(), 'Settings saved.');
      assert.equal(await page.textContent('#stored'), 'Original title', 'the page says saved; the app holds the old title');
      assert.equal(app.writes.length, 0);
      assert.deepEqual(posts(proxy, app).map((e) => e.action), ['dropped']);
    });

    await t.test('state: the success at once, the write at the app only once the proxy forwards it (its log)', async () => {
      const page = await fresh('state');
      await page.goto(`${app.origin}/form`);
      await page.fill('#title', 'Late title');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      while (proxy.pendingWrites() > 0 || !posts(proxy, app).some((e) => e.action === 'forwarded-late' && e.status !== null)) await page.waitForTimeout(50);
      const [answered, late] = posts(proxy, app);
      assert.deepEqual([answered!.action, late!.action], ['answered', 'forwarded-late']);
      assert.deepEqual(app.writes.map((w) => w.title), ['Late title']);
      assert.ok(answered!.t < late!.forwardedAt! && late!.forwardedAt! <= app.writes[0]!.t, 'answered, forwarded, received: in that order on one clock');
      t.diagnostic(`${name}: the app received the write ${(app.writes[0]!.t - answered!.t).toFixed(0)} ms after the proxy answered it`);
    });

    await t.test('action: the first activation sends nothing, the second saves', async () => {
      const page = await fresh('action');
      await page.goto(`${app.origin}/form`);
      await page.fill('#title', 'Second click');
      await page.click('#submit');
      assert.equal(page.url(), `${app.origin}/form`, 'no navigation');
      assert.deepEqual(posts(proxy, app), [], 'nothing was sent');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      assert.deepEqual(app.writes.map((w) => w.title), ['Second click']);
    });

    await t.test('perception: a decoy with the same role and name stands where the seed puts it; clicking it sends nothing', async () => {
      const page = await fresh('perception');
      await page.goto(`${app.origin}/form`);
      const controls = page.getByRole(save.role, { name: save.name, exact: true });
      assert.equal(await controls.count(), 2, 'getByRole finds two');
      const real = await controls.evaluateAll((all) => all.findIndex((e) => e.id === 'submit'));
      assert.equal(real, planFor({ spec: formSpec as never, layer: 'perception', severity: 1, seed: `${name}-perception` }).page!.decoysBefore);
      const decoy = controls.nth(real === 0 ? 1 : 0);
      assert.equal(await decoy.isVisible(), true);
      await page.fill('#title', 'Through the real one');
      await decoy.click();
      assert.equal(page.url(), `${app.origin}/form`);
      assert.deepEqual(posts(proxy, app), [], 'the decoy sent nothing');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      assert.deepEqual(app.writes.map((w) => w.title), ['Through the real one'], 'the real control still saves, and the decoy added no field');
    });

    await t.test('access: the target is not there at DOMContentLoaded, and is later', async () => {
      const page = await fresh('access');
      // the test's own probe, at DOMContentLoaded (registered before any script of the page)
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const target = document.querySelector<HTMLElement>('#submit');
          document.documentElement.dataset.probe = target ? getComputedStyle(target).display : 'missing';
        });
      });
      await page.goto(`${app.origin}/form`, { waitUntil: 'domcontentloaded' });
      assert.equal(await page.getAttribute('html', 'data-probe'), 'none', 'hidden at DOMContentLoaded');
      await page.getByRole(save.role, { name: save.name }).waitFor({ state: 'visible' });
      assert.equal(await page.isVisible('#submit'), true);
      assert.equal(await page.evaluate(() => document.adoptedStyleSheets.length), 0, 'the style sheet that hid it is gone');
      await page.fill('#title', 'After the wait');
      await page.click('#submit');
      await page.getByRole('status').waitFor();
      assert.deepEqual(app.writes.map((w) => w.title), ['After the wait']);
    });

  });
}
