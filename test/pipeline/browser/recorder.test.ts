// The browser layer's contract, tested by the SAME assertions in Chromium (CDP) and Firefox
// (Playwright's events over WebDriver BiDi): one vocabulary, one clock, response started kept apart
// from response completed, redirects folded into one chain, aborts as failures, and a DOM probe that
// runs before the page's own scripts. Firefox runs it on both of its paths
// (pipeline/browser/firefox-path.ts: Playwright's, a window per page; the lean one, a tab in a host
// window with site isolation off), and the two record the same events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserNames, launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import type { FirefoxPath } from '../../../pipeline/browser/firefox-path.ts';
import { installProbe, startRecorder } from '../../../pipeline/browser/recorder.ts';
import { startFixtureServer, send, sendHtml, now } from '../../../fixtures/server.ts';
import { serverEvents } from '../../../pipeline/evidence/condition.ts';
import type { ServerEvent } from '../../../fixtures/evidence/app.ts';
import { chainsOf, correlate } from '../../../verifier/src/correlate.ts';
import { pathOf, type EvidenceEvent } from '../../../verifier/src/events.ts';
import { validate } from '../../../core/validate.ts';

const page = `<!doctype html><html><head><script>document.documentElement.setAttribute('data-ui', 'parsed');</script></head>
<body><button id="go">go</button><p id="s" data-ui="idle"></p><script>
document.getElementById('go').addEventListener('click', () => {
  document.getElementById('s').dataset.ui = 'optimistic';
  const done = [
    fetch('/stream').then((r) => r.text()).catch(() => {}),
    fetch('/abort').then((r) => r.text()).catch(() => {}),
    fetch('/r1', { method: 'POST', body: 'x' }).then((r) => r.text()).then(() => performance.mark('app:commit')).catch(() => {}),
  ];
  Promise.allSettled(done).then(() => { document.body.dataset.settled = '1'; });
});
</script></body></html>`;

function contractApp() {
  const log: ServerEvent[] = [];
  const at = (path: string, method = 'GET') => log.push({ t: now(), type: 'received', method, path });
  return {
    log,
    app: {
      stateAt: () => null,
      routes: {
        'GET /': (_q: any, res: any) => sendHtml(res, page),
        'GET /favicon.ico': (_q: any, res: any) => send(res, 204, 'image/x-icon', ''),
        'GET /stream': (_q: any, res: any) => {
          at('/stream');
          setTimeout(() => {
            res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
            let i = 0;
            const timer = setInterval(() => { res.write(`chunk ${i}\n`); if (++i === 3) { clearInterval(timer); res.end(); } }, 60);
          }, 20);
        },
        'GET /abort': (_q: any, res: any) => {
          at('/abort');
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400', 'cache-control': 'no-store' });
          res.write('{"ok":tr');
          setTimeout(() => res.destroy(), 30);
        },
        'POST /r1': (_q: any, res: any) => { at('/r1', 'POST'); send(res, 307, 'text/plain', '', { location: '/r2' }); },
        'POST /r2': (_q: any, res: any) => { at('/r2', 'POST'); send(res, 307, 'text/plain', '', { location: '/final' }); },
        'POST /final': (_q: any, res: any) => { at('/final', 'POST'); setTimeout(() => send(res, 200, 'application/json', '{"ok":true}'), 20); },
      },
    },
  };
}

async function record(name: BrowserName, firefoxPath: FirefoxPath = 'playwright'): Promise<{ events: EvidenceEvent[]; version: string }> {
  const server = await startFixtureServer();
  const { app, log } = contractApp();
  server.load(app);
  const launched = await launchBrowser(name, null, { firefoxPath });
  try {
    const context = await launched.browser.newContext();
    await installProbe(context);
    const p = await context.newPage();
    const recorder = await startRecorder(p, name);
    await p.goto(`${server.origin}/`);
    await recorder.dispatch(() => p.click('#go'));
    // every request settled in the page (however loaded the machine), then a margin for the driver's last events
    await p.waitForSelector('body[data-settled]', { state: 'attached' });
    await p.waitForTimeout(200);
    const events = await recorder.timeline({ horizonMs: 500, extra: serverEvents(log) });
    await context.close();
    return { events, version: launched.version };
  } finally {
    await launched.browser.close();
    await server.close();
  }
}

const chainTo = (events: EvidenceEvent[], path: string) => chainsOf(events).find((c) => c.hops.some((h) => pathOf(h.url) === path));

const paths: [BrowserName, FirefoxPath][] = [...browserNames.map((n): [BrowserName, FirefoxPath] => [n, 'playwright']), ['firefox', 'lean']];
const recorded = new Map<string, EvidenceEvent[]>();

for (const [name, pages] of paths) {
  test(`browser-layer contract in ${name}${name === 'firefox' ? ` (the ${pages} path)` : ''}`, async () => {
    const { events, version } = await record(name, pages);
    if (name === 'firefox') recorded.set(pages, events);

    // one vocabulary: every event is a valid trace event, whatever the driver
    validate('trace', {
      schema: 'trace/1', study: 'evidence', arm: 'controlled', run_id: 'contract', condition_id: 'contract', policy: 'contract',
      browser: { name, version }, ledger_head: '0'.repeat(64), started_at: new Date().toISOString(), elapsed_ms: 0,
      scenario: 'contract', delay_ms: 0, rep: 0, truth: 'success', events, verdicts: { none: { accept: false, latency_ms: null } },
    }, { file: `contract-${name}` });
    const allowed = { network: ['request', 'redirect', 'response', 'finished', 'failed'], runner: ['dispatch', 'clock-sync', 'horizon'], server: ['received'] };
    for (const e of events) if (e.source in allowed) assert.ok(allowed[e.source as keyof typeof allowed].includes(e.type), `${e.source}/${e.type}`);

    // one clock: the dispatch is 0, the page clock is mapped with a stated uncertainty, events are in
    // time order (how tight the mapping must be is the study's clock gate, core/evidence/gates.ts,
    // applied to every registered row: a loaded machine widens it, so no test asserts a bound)
    assert.equal(events.find((e) => e.type === 'dispatch')?.t_ms, 0);
    const sync = events.find((e) => e.type === 'clock-sync')!;
    const u = sync.detail!.page_uncertainty_ms as number;
    assert.ok(Number.isFinite(u) && u >= 0, `clock uncertainty ${u}`);
    assert.deepEqual(events.map((e) => e.t_ms), [...events.map((e) => e.t_ms)].sort((a, b) => a - b));

    // the DOM probe ran before the page's own scripts: it saw the inline head script's mutation
    const parsed = events.find((e) => e.source === 'dom' && e.type === 'parsed');
    assert.ok(parsed && parsed.t_ms < 0, 'the head script mutation was recorded before the dispatch');
    const optimistic = events.find((e) => e.source === 'dom' && e.type === 'optimistic');
    // the click handler's own mutation, seen by the probe in the same task: after the dispatch, before
    // the app's commit mark, which waits on the server (an order, not a bound a loaded machine breaks)
    const commit = events.find((e) => e.source === 'app' && e.type === 'commit');
    assert.ok(commit, 'the app mark was recorded');
    assert.ok(optimistic && optimistic.t_ms >= -u && optimistic.t_ms < commit.t_ms, `optimistic at ${optimistic?.t_ms}, commit at ${commit.t_ms}`);

    // response STARTED is kept apart from response COMPLETED on a streamed body
    const stream = chainTo(events, '/stream')!;
    assert.equal(stream.terminal?.type, 'finished');
    // (the gap's size, 3 chunks 60 ms apart, is the study's stream gate; a loaded browser may read them late)
    assert.ok(stream.terminal!.t_ms > stream.terminal!.response_t_ms!, `response at ${stream.terminal!.response_t_ms}, finished at ${stream.terminal!.t_ms}`);

    // an aborted body is a loading failure after the response started
    const aborted = chainTo(events, '/abort')!;
    assert.equal(aborted.terminal?.type, 'failed');
    assert.notEqual(aborted.terminal?.response_t_ms, null);

    // a redirect chain is one request_id, with a 307 per hop, reaching /final
    const redirects = events.filter((e) => e.type === 'redirect');
    assert.equal(redirects.length, 2);
    assert.equal(new Set(redirects.map((e) => e.request_id)).size, 1);
    assert.deepEqual(redirects.map((e) => e.status), [307, 307]);
    const c = correlate(events, { method: 'POST', path: '/final' });
    assert.ok(c.kind === 'correlated', 'the chain is correlated through its redirects');
    if (c.kind !== 'correlated') return;
    assert.deepEqual(c.chain.hops.map((h) => pathOf(h.url)), ['/r1', '/r2', '/final']);
    assert.equal(c.chain.terminal?.status, 200);

    // the server's receipt lies between the browser's send and the browser's completion
    const received = events.find((e) => e.source === 'server' && e.url === '/stream')!;
    assert.ok(received.t_ms >= stream.request_t_ms - 2 - u && received.t_ms <= stream.terminal!.t_ms, `server ${received.t_ms}, browser ${stream.request_t_ms}–${stream.terminal!.t_ms}`);
  });
}

// What each event is, without its times and ids: the two Firefox paths must give the same list
const signature = (events: EvidenceEvent[]) => events
  .filter((e) => e.source !== 'runner' || e.type === 'dispatch')
  .map((e) => `${e.source}/${e.type} ${e.url ? pathOf(e.url) : ''}${e.status ? ` ${e.status}` : ''}`)
  .sort();

test("Firefox records the same events for the same page on Playwright's path and on the lean one", () => {
  const windows = recorded.get('playwright');
  const tabs = recorded.get('lean');
  assert.ok(windows && tabs, 'both Firefox contract tests ran first');
  assert.deepEqual(signature(tabs), signature(windows));
});
