// Remote browsers: BROWSER_WS_ENDPOINT makes launchBrowser connect to a browser that runs already,
// instead of launching one here:
//
//   ws://host:port/<path>                    a Playwright browser server (BrowserType.launchServer,
//                                            `make browser-server`, or Playwright's run-server):
//                                            chromium.connect / firefox.connect
//   http(s)://host:port, ws://…/devtools/…   a plain CDP endpoint (chromium --remote-debugging-port,
//                                            a browserless or Selenium Grid Chrome node):
//                                            chromium.connectOverCDP; Chromium only
//
// A client of one engine can attach to a server of the other without complaint, so the engine is
// read from the browser itself (navigator.userAgent in a throw-away context) and a mismatch is
// refused: a row's browser {name, version} is always the browser that ran it.
// Closing a connected browser disconnects and drops the contexts we made; the server keeps running.
import { chromium, firefox, type Browser } from 'playwright-core';
import { RStackError, UsageError, firstLine } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';

// launch.ts calls this module; its BrowserName and LaunchedBrowser are these shapes (no import back: no cycle)
type BrowserName = 'chromium' | 'firefox';
interface LaunchedBrowser { name: BrowserName; version: string; browser: Browser }

export type EndpointKind = 'playwright' | 'cdp';

export function endpointKind(endpoint: string): EndpointKind {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (cause) {
    throw new UsageError(messages.remote.badEndpoint(endpoint), cause);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return 'cdp';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new UsageError(messages.remote.badEndpoint(endpoint));
  return url.pathname.startsWith('/devtools/') ? 'cdp' : 'playwright';
}

/** The engine a connected browser really is, from its user agent. */
async function engineOf(browser: Browser): Promise<BrowserName | 'unknown'> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const agent = await page.evaluate(() => navigator.userAgent);
    return /Firefox\//.test(agent) ? 'firefox' : /Chrom(e|ium)\//.test(agent) ? 'chromium' : 'unknown';
  } finally {
    await context.close();
  }
}

export async function connectBrowser(name: BrowserName, endpoint: string, timeoutMs = 30_000): Promise<LaunchedBrowser> {
  const kind = endpointKind(endpoint);
  if (kind === 'cdp' && name !== 'chromium') throw new UsageError(messages.remote.cdpNeedsChromium(endpoint));
  let browser: Browser;
  try {
    browser = kind === 'cdp' ? await chromium.connectOverCDP(endpoint, { timeout: timeoutMs }) : await (name === 'chromium' ? chromium : firefox).connect(endpoint, { timeout: timeoutMs });
  } catch (cause) {
    throw new RStackError(messages.remote.connectFailed(endpoint, firstLine(cause)), { exitCode: 1, cause });
  }
  const engine = await engineOf(browser).catch(async (cause) => {
    await browser.close().catch(() => undefined);
    throw new RStackError(messages.remote.connectFailed(endpoint, firstLine(cause)), { exitCode: 1, cause });
  });
  if (engine !== name) {
    await browser.close().catch(() => undefined);
    throw new UsageError(messages.remote.wrongEngine(endpoint, engine, name));
  }
  return { name, version: browser.version(), browser };
}
