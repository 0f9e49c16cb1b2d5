// The fault proxy's transport faults in both real browsers (Debian's Chromium over CDP, Firefox ESR
// over WebDriver BiDi), on the proxy tests' own small app: each fault at severity 1 does to a page
// what it is designed to do, and the app (the store) says what reached it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { launchBrowser, browserNames } from '../../pipeline/browser/launch.ts';
import { startFaultProxy, type TransportFaultName } from '../../proxy/src/index.ts';
import { startFormApp, formSpec } from './form-app.ts';

const save = { role: 'button', name: 'Save Changes' } as const;

for (const name of browserNames) {
  test(`${name}: each transport fault through the proxy, as the page and the app see it`, async (t) => {
    const app = await startFormApp();
    const proxy = await startFaultProxy();
    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url } });
    t.after(async () => { await browser.close(); await proxy.close(); await app.close(); });

    /** a fresh page in a fresh context, the proxy on the transport fault (severity 1 unless said), the app as seeded */
    const fresh = async (fault: TransportFaultName, severity: 1 | 2 | 3 = 1): Promise<Page> => {
      proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: `${name}-${fault}`, transport: { fault, severity } });
      app.writes.length = 0;
      app.requests.length = 0;
      app.title = 'Original title';
      const context = await browser.newContext();
      t.after(() => context.close());
      return context.newPage();
    };

    await t.test('write-error: the save shows an error page and nothing is stored; saving again stores it', async () => {
      const page = await fresh('write-error');
      await page.goto(`${app.origin}/form`);
      await page.getByLabel('Site Title').fill('Error first');
      await page.getByRole(save.role, { name: save.name }).click();
      await page.getByText('The server could not handle the request.').waitFor();
      assert.equal(app.writes.length, 0, 'the write never reached the app');
      await page.goto(`${app.origin}/form`);
      await page.getByLabel('Site Title').fill('Error first');
      await page.getByRole(save.role, { name: save.name }).click();
      await page.getByText('Settings saved.').waitFor();
      assert.deepEqual(app.writes.map((w) => w.title), ['Error first']);
    });

    await t.test('lost-response at severity 3 (every answer lost): the save fails in the browser, while the app has the write as many times as the browser sent it', async () => {
      // at severity 1 both browsers send a POST again, unasked, when its connection is reset before
      // any answer (the first lost, the second answered: two writes and a notice of success), so
      // the failure a user sees needs every answer lost
      const page = await fresh('lost-response', 3);
      await page.goto(`${app.origin}/form`);
      await page.getByLabel('Site Title').fill('Stored, answer lost');
      await page.getByRole(save.role, { name: save.name }).click({ noWaitAfter: true });
      // the browser gives up on the navigation: its own error page, never the app's notice
      await page.waitForURL((url) => url.pathname !== '/form', { waitUntil: 'commit' }).catch(() => undefined);
      await page.waitForLoadState('load');
      assert.equal(await page.getByText('Settings saved.').count(), 0, 'no notice of success');
      const posts = proxy.log.filter((e) => e.write);
      assert.ok(posts.length >= 1);
      assert.ok(posts.every((e) => e.action === 'lost'), posts.map((e) => e.action).join(', '));
      assert.equal(app.writes.length, posts.length, 'every write the proxy saw reached the app: the store counts each');
      assert.ok(app.writes.every((w) => w.title === 'Stored, answer lost'));
      t.diagnostic(`${name}: the browser sent the write ${posts.length} time(s) for one click`);
    });

    await t.test('document-error: the first load is an error page, the reload the form', async () => {
      const page = await fresh('document-error');
      const response = await page.goto(`${app.origin}/form`);
      assert.equal(response!.status(), 503);
      assert.equal(await page.getByLabel('Site Title').count(), 0);
      await page.reload();
      await page.getByLabel('Site Title').waitFor();
      assert.equal(app.requests.filter((r) => r.startsWith('GET /form')).length, 1, 'only the reload reached the app');
    });

    await t.test('asset-error: the first load has neither its script nor its stylesheet; the reload has both', async () => {
      const page = await fresh('asset-error');
      await page.goto(`${app.origin}/asset-form`, { waitUntil: 'load' });
      assert.equal(await page.evaluate(() => (window as unknown as { appScript?: boolean }).appScript ?? null), null, 'the script did not run');
      assert.equal(await page.locator('#unstyled').isVisible(), true, 'the stylesheet did not apply');
      await page.reload({ waitUntil: 'load' });
      assert.equal(await page.evaluate(() => (window as unknown as { appScript?: boolean }).appScript ?? null), true);
      assert.equal(await page.locator('#unstyled').isVisible(), false);
      const failed = proxy.log.filter((e) => e.action === 'failed').map((e) => new URL(e.url).pathname).sort();
      assert.deepEqual(failed, ['/app.css', '/app.js']);
    });

    await t.test('popup: a dialog takes the pointer over the save button; its big button leads away; the next document has none', async () => {
      const page = await fresh('popup');
      await page.goto(`${app.origin}/form`);
      const dialog = page.getByRole('dialog', { name: 'Your session is about to expire' });
      await dialog.waitFor();
      const box = (await page.getByRole(save.role, { name: save.name }).boundingBox())!;
      const covered = await page.evaluate(([x, y]) => {
        const hit = document.elementFromPoint(x!, y!);
        return hit !== null && hit.closest('[role="dialog"]') === null && hit.id !== 'submit';
      }, [box.x + box.width / 2, box.y + box.height / 2]);
      assert.equal(covered, true, 'what is under the pointer at the save button is the pop-up\'s shade, not the button');
      await dialog.getByRole('link', { name: 'Continue' }).click();
      await page.waitForURL(`${app.origin}/`);
      await page.goto(`${app.origin}/form`);
      await page.getByLabel('Site Title').waitFor();
      assert.equal(await page.getByRole('dialog').count(), 0, 'the second document has no pop-up');
    });
  });
}
