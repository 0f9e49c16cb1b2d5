// How a Firefox page is opened (issue 38). playwright-core 1.64 opens every new page of a context in
// a new Firefox window (BiDi browsingContext.create, type "window"), and a window costs Firefox
// its whole browser chrome each time: about 0.3 CPU-s per trial on the 2-core machine, a quarter of a
// layers trial's Firefox CPU (make bench ARGS=--firefox-cost, docs/speed.md).
//
//   windows  Playwright as it is: a window per page (the path of every registered Firefox row)
//   tabs     a page is a tab, opened in the foreground of a host window that holds no other page;
//            a host window is made the first time all are busy and kept for the browser's life
//
// Under `tabs` each context is still fresh (its own user context, removed when it closes) and its
// page is still alone and in front in its window, so it is visible, focused and animated as in a
// window of its own (at any number of pages at once: one host window each); the test
// (test/pipeline/browser/firefox-pages.test.ts) shows that the page sees the same, and the recorder
// records the same events, under both.
//
// Playwright has no public option for it. Its server runs in this process, so the one place that
// opens a page (BrowserContext.newPage → doCreateNewPage) is wrapped for the browsers this module
// was given; the wrapped step sends what Playwright's own sends, with `tab` and a host window as the
// reference, then does what Playwright's own does after it. Only playwright-core 1.64.x is wrapped:
// another version is refused at launch, not run on a guess.
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { RStackError, UsageError } from '../../core/errors.ts';

export type FirefoxPages = 'windows' | 'tabs';
export const firefoxPagesChoices: readonly FirefoxPages[] = ['windows', 'tabs'];
export const firefoxPagesHelp = 'windows (a Firefox window per page, as playwright-core opens it and as every registered Firefox row ran) or tabs (a tab in a host window of its own, issue 38)';

/** The path chosen for this process: FIREFOX_PAGES, default windows (the registered path). */
export function firefoxPagesFromEnv(env: NodeJS.ProcessEnv = process.env): FirefoxPages {
  return parseFirefoxPages(env.FIREFOX_PAGES || 'windows', 'FIREFOX_PAGES');
}

export function parseFirefoxPages(value: string, what = '--firefox-pages'): FirefoxPages {
  if (!firefoxPagesChoices.includes(value as FirefoxPages)) throw new UsageError(`${what} takes ${firefoxPagesChoices.join(' or ')}, not ${JSON.stringify(value)}`);
  return value as FirefoxPages;
}

// ── Playwright's server objects (in-process), as far as this module touches them ──────────────

interface BidiSession { send(method: string, params: object): Promise<Record<string, unknown>> }
interface ServerPage { frameManager: { frameLifecycleEvent(frameId: string, event: string): void }; closedPromise: Promise<unknown> }
interface ServerBrowser { guid: string; _browserSession?: BidiSession; _bidiPages?: Map<string, { _page: ServerPage }> }
interface ServerContext { _browser: ServerBrowser; _browserContextId?: string; doCreateNewPage(): Promise<ServerPage>; newPage(...args: unknown[]): Promise<unknown> }

const WRAPPED_MAJOR_MINOR = '1.64.';
const require = createRequire(import.meta.url);

interface HostWindow { context: string; page: ServerPage | null }
/** per browser (by its guid, which the client object shares with the server's) its host windows */
const tabBrowsers = new Map<string, HostWindow[]>();
let wrapped = false;

function playwrightVersion(): string {
  return (require('playwright-core/package.json') as { version: string }).version;
}

function wrapNewPage(): void {
  if (wrapped) return;
  const version = playwrightVersion();
  if (!version.startsWith(WRAPPED_MAJOR_MINOR)) {
    throw new RStackError(`FIREFOX_PAGES=tabs opens Firefox pages inside playwright-core ${WRAPPED_MAJOR_MINOR}x, and this is ${version}: use FIREFOX_PAGES=windows, or check pipeline/browser/firefox-pages.ts against this version first`, { exitCode: 2 });
  }
  const { server } = require('playwright-core/lib/coreBundle') as { server: { BrowserContext: { prototype: ServerContext } } };
  const proto = server.BrowserContext.prototype;
  const newPage = proto.newPage;
  if (typeof newPage !== 'function') throw new RStackError(`playwright-core ${version}: its server BrowserContext has no newPage to wrap`, { exitCode: 2 });
  proto.newPage = function (this: ServerContext, ...args: unknown[]) {
    const hosts = tabBrowsers.get(this._browser.guid);
    if (hosts && !Object.prototype.hasOwnProperty.call(this, 'doCreateNewPage')) {
      const context = this;
      // shadows Playwright's own step for this context only
      context.doCreateNewPage = () => openTab(context, hosts);
    }
    return newPage.apply(this, args);
  };
  wrapped = true;
}

/** What BidiBrowserContext.doCreateNewPage does, with a tab in the foreground of a free host window. */
async function openTab(context: ServerContext, hosts: HostWindow[]): Promise<ServerPage> {
  const browser = context._browser;
  const session = browser._browserSession;
  if (!session || !browser._bidiPages) throw new RStackError('FIREFOX_PAGES=tabs: this browser is not driven over WebDriver BiDi');
  let host = hosts.find((h) => h.page === null);
  if (!host) {
    // a window of the default user context: a non-persistent browser has no context for it, so
    // Playwright makes no page of it; it only ever holds a blank tab behind the pages it hosts
    const { context: id } = (await session.send('browsingContext.create', { type: 'window' })) as { context: string };
    host = { context: id, page: null };
    hosts.push(host);
  }
  const claimed = host;
  claimed.page = PENDING;
  try {
    const { context: id } = (await session.send('browsingContext.create', {
      type: 'tab', userContext: context._browserContextId, referenceContext: claimed.context, background: false,
    })) as { context: string };
    const bidiPage = browser._bidiPages.get(id);
    if (!bidiPage) throw new RStackError(`FIREFOX_PAGES=tabs: Firefox made tab ${id}, and Playwright has no page for it`);
    const page = bidiPage._page;
    page.frameManager.frameLifecycleEvent(id, 'domcontentloaded');
    page.frameManager.frameLifecycleEvent(id, 'load');
    claimed.page = page;
    void page.closedPromise.then(() => { if (claimed.page === page) claimed.page = null; });
    return page;
  } catch (error) {
    claimed.page = null;
    throw error;
  }
}

const PENDING = { frameManager: { frameLifecycleEvent() {} }, closedPromise: new Promise(() => {}) } as ServerPage;

/** From now on, every page of this (local, BiDi) Firefox opens as a tab in a host window of its own. */
export function openPagesAsTabs(browser: Browser): void {
  wrapNewPage();
  const guid = (browser as unknown as { _guid?: string })._guid;
  if (!guid) throw new RStackError('FIREFOX_PAGES=tabs: this Browser object has no guid to find its server side by');
  if (!tabBrowsers.has(guid)) tabBrowsers.set(guid, []);
  browser.once('disconnected', () => tabBrowsers.delete(guid));
}

/** How many host windows this browser has made so far (tests, the bench): null when its pages open as windows. */
export function hostWindowCount(browser: Browser): number | null {
  const hosts = tabBrowsers.get((browser as unknown as { _guid?: string })._guid ?? '');
  return hosts ? hosts.length : null;
}
