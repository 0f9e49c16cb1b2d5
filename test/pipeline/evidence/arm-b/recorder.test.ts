// The recorder's guard in real browsers: a page on the manifest's origin tries a POST to its own
// origin and GETs to another loopback server; both are refused before anything is sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchBrowser, type BrowserName } from '../../../../pipeline/browser/launch.ts';
import { recordTrial } from '../../../../pipeline/evidence/arm-b/recorder.ts';
import { documentRequest, networkCompletion, domcontentloaded } from '../../../../core/evidence/production.ts';

let site: http.Server;
let other: http.Server;
let origin = '';
let otherOrigin = '';
const siteHits: string[] = [];
const otherHits: string[] = [];
const listen = (s: http.Server) => new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));

before(async () => {
  other = http.createServer((req, res) => { otherHits.push(`${req.method} ${req.url}`); res.end('x'); });
  otherOrigin = await listen(other);
  site = http.createServer((req, res) => {
    siteHits.push(`${req.method} ${req.url}`);
    if (req.url === '/page/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(`<!doctype html><title>Guarded</title><body><p>text</p>
        <img src="${otherOrigin}/pixel.png">
        <script>
          fetch('/write', { method: 'POST', body: 'x' }).catch(() => {});
          fetch('${otherOrigin}/beacon').catch(() => {});
        </script></body>`);
    }
    res.writeHead(404).end('no');
  });
  origin = await listen(site);
});
after(() => { site.close(); other.close(); });

for (const name of ['firefox', 'chromium'] as BrowserName[]) {
  test(`${name}: an off-origin host and a non-GET request are refused before they are sent`, async () => {
    siteHits.length = 0;
    otherHits.length = 0;
    const { browser } = await launchBrowser(name);
    try {
      const trial = await recordTrial(browser, { url: `${origin}/page/`, origin, windowMs: 800 });
      const refused = trial.events.filter((e) => e.type === 'refused');
      const reasons = refused.map((e) => `${e.detail!.method} ${new URL(e.url!).pathname} ${e.detail!.reason}`).sort();
      assert.deepEqual(reasons, ['GET /beacon host', 'GET /pixel.png host', 'POST /write method']);
      assert.deepEqual(otherHits, [], 'nothing reached the other host');
      assert.ok(siteHits.every((h) => h.startsWith('GET ')), `only GETs reached the site: ${siteHits.join(', ')}`);
      // the navigation itself went through and was recorded
      assert.equal(trial.error, null);
      assert.equal(documentRequest(trial.events)!.status, 200);
      assert.equal(networkCompletion(trial.events).accept, true);
      assert.equal(domcontentloaded(trial.events).accept, true);
      assert.ok(trial.events.filter((e) => e.type === 'title').every((e) => e.detail!.title === 'Guarded'));
    } finally {
      await browser.close();
    }
  });
}

test('firefox: a navigation to a host outside the manifest never leaves the browser', async () => {
  otherHits.length = 0;
  const { browser } = await launchBrowser('firefox');
  try {
    const trial = await recordTrial(browser, { url: `${otherOrigin}/elsewhere`, origin, windowMs: 400, boundMs: 5000 });
    assert.deepEqual(otherHits, []);
    assert.ok(trial.events.some((e) => e.type === 'refused' && e.detail!.reason === 'host'));
    assert.equal(networkCompletion(trial.events).accept, false);
  } finally {
    await browser.close();
  }
});
