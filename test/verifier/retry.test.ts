// The verifier's retry pattern (verifier/src/retry.ts, issue 37) on the lost-response fault, in real
// Chromium and Firefox: the proxy tests' settings form behind the fault proxy, every answer to its
// write lost after the app stored it. The app's own list of writes is the truth:
//   a contract that can read the store  → one attempt, the store read, already-done: no second write
//   a contract that cannot, not repeatable → one attempt, not-repeated: no second write
//   a contract that cannot, repeatable  → every attempt runs: the app gets the write each time
//   no fault                           → closed at the first attempt, no store read
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserNames, launchBrowser } from '../../pipeline/browser/launch.ts';
import { startFaultProxy } from '../../proxy/src/index.ts';
import { attach, verifyWithRetry, ContractError, type ActionContract } from '../../verifier/src/index.ts';
import { startFormApp, formSpec } from '../proxy/form-app.ts';

for (const name of browserNames) {
  test(`${name}: a write whose answer is lost is made once when the contract can read the store, and again only when it may be`, async (t) => {
    const app = await startFormApp();
    const proxy = await startFaultProxy();
    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url } });
    t.after(async () => { await browser.close(); await proxy.close(); await app.close(); });

    /** the form open, the title typed; the proxy on lost-response severity 3 (every answer lost) unless `fault` is false */
    const open = async (title: string, fault = true): Promise<Page> => {
      proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: `${name}-retry`, ...(fault ? { transport: { fault: 'lost-response', severity: 3 } } : {}) });
      app.writes.length = 0;
      app.title = 'Original title';
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`${app.origin}/form`);
      await page.getByLabel('Site Title').fill(title);
      return page;
    };
    const contract = (page: Page, title: string, read: boolean, repeatable?: boolean): ActionContract => ({
      id: 'settings/save title',
      action: () => page.getByRole('button', { name: 'Save Changes' }).click({ noWaitAfter: true }),
      request: { method: 'POST', path: '/save' },
      transport: { success: [[200, 399]], failure: [[400, 599]], networkError: 'failure' },
      navigates: true,
      semantic: read
        ? { kind: 'read-back', read: async ({ request }) => (await request.get(`${app.origin}/form`)).text(), success: (html) => String(html).includes(`<span id="stored">${title}</span>`) }
        : { kind: 'dom', success: '#notice' },
      timeoutMs: 4000,
      ...(repeatable === undefined ? {} : { repeatable }),
    });
    /** every write the proxy saw reached the app (each answer lost after the app stored it) */
    const allReached = () => assert.equal(proxy.log.filter((e) => e.write).length, app.writes.length);

    await t.test('the store can be read: already-done after one attempt, no second write', async () => {
      const page = await open('Read back');
      const verifier = attach(page);
      const result = await verifyWithRetry(verifier, page, contract(page, 'Read back', true), { attempts: 3, settleMs: 200 });
      verifier.detach();
      assert.deepEqual([result.state, result.ended, result.records.length], ['closed', 'already-done', 1]);
      assert.deepEqual(result.records[0]!.state, 'failed', 'the attempt itself failed: its answer was lost');
      assert.deepEqual(result.checks.map((c) => [c.after, c.held]), [[1, true]]);
      assert.ok(app.writes.length >= 1, 'the app stored it');
      assert.ok(app.writes.every((w) => w.title === 'Read back'));
      allReached();
      // a browser sends a POST again on its own when its connection is reset before any answer
      t.diagnostic(`${name}: one click, ${app.writes.length} write(s) at the app`);
    });

    await t.test('the store cannot be read and the write is not repeatable: not-repeated after one attempt', async () => {
      const page = await open('Not repeated');
      const verifier = attach(page);
      const result = await verifyWithRetry(verifier, page, contract(page, 'Not repeated', false), { attempts: 3, settleMs: 200 });
      verifier.detach();
      assert.deepEqual([result.state, result.ended, result.records.length], ['failed', 'not-repeated', 1]);
      assert.deepEqual(result.checks.map((c) => [c.held, c.error]), [[null, 'the contract declares no read of the store']]);
      assert.ok(app.writes.length >= 1, 'the one attempt reached the app');
      allReached();
    });

    await t.test('the store cannot be read and the write is repeatable: every attempt runs, and the app gets each', async () => {
      const page = await open('Repeated', true);
      const verifier = attach(page);
      const attempts: number[] = [];
      const c = contract(page, 'Repeated', false, true);
      const result = await verifyWithRetry(verifier, page, { ...c, action: async () => {
        attempts.push(app.writes.length);
        // after a lost answer the page is the browser's error page: the form again, then the click
        if (!(await page.getByRole('button', { name: 'Save Changes' }).count())) {
          await page.goto(`${app.origin}/form`);
          await page.getByLabel('Site Title').fill('Repeated');
        }
        await c.action();
      } }, { attempts: 3, settleMs: 200 });
      verifier.detach();
      assert.deepEqual([result.state, result.ended, result.records.length], ['failed', 'attempts-exhausted', 3]);
      assert.equal(result.checks.length, 2, 'a check before each repeat');
      // the app's count when each attempt began: every attempt wrote again
      attempts.push(app.writes.length);
      assert.ok(attempts.every((n, i) => i === 0 || n > attempts[i - 1]!), `writes at the app when each attempt began, and at the end: ${attempts.join(', ')}`);
      allReached();
    });

    await t.test('no fault: closed at the first attempt, no store read', async () => {
      const page = await open('No fault', false);
      const verifier = attach(page);
      const result = await verifyWithRetry(verifier, page, contract(page, 'No fault', true), { attempts: 3, settleMs: 200 });
      verifier.detach();
      assert.deepEqual([result.state, result.ended, result.records.length, result.checks.length], ['closed', 'closed', 1, 0]);
      assert.equal(app.writes.length, 1);
    });
  });
}

test('a malformed retry is refused before anything runs, naming the field', async () => {
  const never = () => { throw new Error('the action must not run'); };
  const terms = { id: 'x', action: never, request: 'none' as const, semantic: { kind: 'dom' as const, success: 'body' }, timeoutMs: 100 };
  const fake = { verify: never, note: () => undefined, detach: () => undefined } as never;
  await assert.rejects(verifyWithRetry(fake, {} as never, terms, { attempts: 0 }), (e: unknown) => e instanceof ContractError && /attempts/.test(e.message));
  await assert.rejects(verifyWithRetry(fake, {} as never, { ...terms, repeatable: 'yes' as never }), (e: unknown) => e instanceof ContractError && e.field === 'repeatable');
});
