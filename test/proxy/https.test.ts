// HTTPS through the fault proxy: the proxy makes a CA for the run (its key 0600 in the run's state
// folder), the browser launched for the run trusts it and nothing else does (Chromium by its SPKI
// hash, Firefox by its own profile's NSS store); a local HTTPS site — Debian's Apache with a
// self-signed certificate on 127.0.0.1:8643, brotli-compressed — behind the proxy, and a fault
// acting on it in both browsers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { launchBrowser, browserNames } from '../../pipeline/browser/launch.ts';
import { startFaultProxy, type FaultProxy } from '../../proxy/src/index.ts';
import { startHttpsSite, type HttpsSite } from './https-site.ts';
import { formSpec } from './form-app.ts';

const spec = { ...formSpec, family: 'test-https-form', pages: '^/form\\.html', success: { ...formSpec.success, location: '/form.html?saved=1' } };
const postsAtApache = (site: HttpsSite) => site.requests().filter((r) => r.startsWith('POST'));

let site: HttpsSite;
let proxy: FaultProxy;

test.before(async () => {
  site = await startHttpsSite();
  proxy = await startFaultProxy({ https: true, upstreamCA: [site.certPath] });
});
test.after(async () => {
  await proxy?.close();
  await site?.stop();
});

test('the run\'s CA: its key 0600 in a folder of its own (0700), the SPKI hash is its certificate\'s, and the system does not trust it', async () => {
  const dir = path.dirname(proxy.ca!.certPath);
  assert.equal(fs.statSync(path.join(dir, 'ca.key')).mode & 0o777, 0o600);
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  const der = new crypto.X509Certificate(fs.readFileSync(proxy.ca!.certPath)).publicKey.export({ type: 'spki', format: 'der' });
  assert.equal(proxy.ca!.spki, crypto.createHash('sha256').update(der).digest('base64'));
  const verify = await execa('openssl', ['verify', '-CApath', '/etc/ssl/certs', proxy.ca!.certPath], { reject: false });
  assert.notEqual(verify.exitCode, 0, 'the system\'s store does not trust the CA');
});

for (const name of browserNames) {
  test(`${name}: the site through the proxy trusted by this browser alone; a page fault through TLS and brotli; a write dropped`, async (t) => {
    const untrusting = (await launchBrowser(name, null, { proxy: { server: proxy.url } })).browser;
    t.after(() => untrusting.close());
    proxy.load({ spec: spec as never, layer: 'baseline', severity: 0, seed: name });
    await assert.rejects((await untrusting.newPage()).goto(`${site.origin}/form.html`), 'a browser not given the CA refuses the proxy\'s certificate');

    const { browser } = await launchBrowser(name, null, { proxy: { server: proxy.url, ca: proxy.ca } });
    t.after(() => browser.close());
    // a context per condition, as the harness makes: a browser may show a copy it cached under the
    // last condition without asking (heuristic freshness), which no proxy can see
    const fresh = async () => (await browser.newContext()).newPage();
    let page = await fresh();
    const response = await page.goto(`${site.origin}/form.html`);
    assert.equal(response!.status(), 200);
    assert.equal((await response!.allHeaders())['content-encoding'], 'br');
    assert.ok(proxy.log.some((e) => e.action === 'pass' && e.url === `${site.origin}/form.html`));

    await t.test('action: the page fault is injected through TLS and brotli; the first click sends nothing, the second reaches Apache', async () => {
      proxy.load({ spec: spec as never, layer: 'action', severity: 1, seed: name });
      page = await fresh();
      const before = postsAtApache(site).length;
      const loaded = await page.goto(`${site.origin}/form.html`);
      assert.equal((await loaded!.allHeaders())['content-encoding'], 'br', 'encoded again as Apache encoded it');
      assert.match(proxy.log.find((e) => e.action === 'inject')?.detail ?? '', /re-encoded br/);
      await page.click('#submit');
      assert.equal(page.url(), `${site.origin}/form.html`);
      assert.equal(postsAtApache(site).length, before, 'nothing was sent');
      await page.click('#submit');
      await page.waitForURL(`${site.origin}/save`);
      assert.deepEqual(postsAtApache(site).slice(before), ['POST /save 404'], 'the second activation reached Apache (a static site, which has no /save)');
    });

    await t.test('verification: the write is answered with the redirect, and never reaches Apache', async () => {
      proxy.load({ spec: spec as never, layer: 'verification', severity: 1, seed: name });
      page = await fresh();
      const before = postsAtApache(site).length;
      await page.goto(`${site.origin}/form.html`);
      await page.click('#submit');
      await page.waitForURL(`${site.origin}/form.html?saved=1`);
      assert.deepEqual(proxy.log.filter((e) => e.method === 'POST' && e.url.startsWith(site.origin)).map((e) => e.action), ['dropped']);
      assert.equal(postsAtApache(site).length, before);
    });
    assert.equal(proxy.failure, null);
  });
}
