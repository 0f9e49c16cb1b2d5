// Which path a Firefox trial takes (issue 38):
//
//   playwright  playwright-core 1.64 as it is: every new page of a context opens in a new Firefox
//               window (BiDi browsingContext.create, type "window"), every site in a content process
//               of its own (fission). The path of every Firefox row registered before ledger entry 33,
//               and still of every arm not in LEAN_PATH_ADOPTED below.
//   lean        the same Playwright, with two of its costs taken away:
//               - a page is a tab, opened in the foreground of a host window that holds no other page
//                 (a host window is made the first time all are busy, and kept for the browser's life);
//                 a window costs Firefox its whole browser chrome each time
//               - site isolation off (fission.webContentIsolationStrategy 0): a trial's page takes a
//                 content process Firefox already has, not a new one
//
// The choice is FIREFOX_TRIAL_PATH (FIREFOX_PATH names Firefox's executable, launch.ts). The check
// amendments frozen in ledger entry 31 wrote `FIREFOX_PATH=lean` for it, before that clash was seen
// (their rerun's first try read `lean` as the executable and ran nothing): their command, `make
// reproduce REDO=1 ARGS="--firefox-path lean"`, is the same.
//
// What they save, by make bench ARGS=--firefox-cost (docs/speed.md): about 15% and 9% of a trial
// cycle's Firefox CPU. Under `lean` each context is still fresh (its own user context, removed when it
// closes), its page still alone and in front in its window, so it is shown, focused and animated as in
// a window of its own, at any number of pages at once (one host window each); the tests
// (test/pipeline/browser/firefox-path.test.ts, recorder.test.ts) show that a page sees the same of
// itself, and the recorder records the same events, on both paths.
//
// Playwright has no public option for the tab. Its server runs in this process, so the one place that
// opens a page (BrowserContext.newPage → doCreateNewPage) is wrapped for the browsers this module was
// given; the wrapped step sends what Playwright's own sends, with `tab` and a host window as the
// reference, then does what Playwright's own does after it. Only playwright-core 1.64.x is wrapped:
// another version is refused at launch, not run on a guess.
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { RStackError, UsageError } from '../../core/errors.ts';

export type FirefoxPath = 'playwright' | 'lean';
export const firefoxPathChoices: readonly FirefoxPath[] = ['playwright', 'lean'];
export const firefoxPathHelp = 'playwright (a window per page and site isolation on, as playwright-core runs Firefox and as every registered Firefox row ran) or lean (a tab in a host window of its own, site isolation off; issue 38)';

/** The preferences the lean path adds to a Firefox profile. */
export const LEAN_PREFS: Readonly<Record<string, number>> = { 'fission.webContentIsolationStrategy': 0 };

/**
 * The arms whose frozen amendment adopts the lean path, and that amendment: their registered runs and
 * their reruns take it unless FIREFOX_TRIAL_PATH says otherwise. A key is `study/arm`, or
 * `study/arm/scope` where the check covered one part of the arm only (Arm B: one sample, its manifest
 * id). An amendment adopts it only where a rerun on it passed the arm's check
 * (pipeline/steps/firefox-path-check.ts, bench/firefox-path/).
 */
export const LEAN_PATH_ADOPTED: Readonly<Record<string, string>> = {
  'layers/main': 'prereg/layers-firefox-path-adopt.md',
  'layers/horizon': 'prereg/layers-firefox-path-adopt.md',
  'evidence/arm-a': 'prereg/evidence-arm-a-firefox-path-adopt.md',
  'evidence/arm-b/wordpress-local': 'prereg/evidence-arm-b-firefox-path-adopt.md',
};

/** The path chosen for this process: FIREFOX_TRIAL_PATH, default playwright (the registered path). */
export function firefoxPathFromEnv(env: NodeJS.ProcessEnv = process.env): FirefoxPath {
  return parseFirefoxPath(env.FIREFOX_TRIAL_PATH || 'playwright', 'FIREFOX_TRIAL_PATH');
}

/** The amendment that adopted the lean path for this arm (or this part of it), or null: only then may a registered run take it. */
export function leanPathAdopted(study: string, arm: string, scope?: string): string | null {
  return (scope !== undefined ? LEAN_PATH_ADOPTED[`${study}/${arm}/${scope}`] : undefined) ?? LEAN_PATH_ADOPTED[`${study}/${arm}`] ?? null;
}

/**
 * An arm's path: FIREFOX_TRIAL_PATH when set; else playwright for a browser that runs already
 * (BROWSER_WS_ENDPOINT: the lean path changes how this process launches Firefox, so it cannot be taken
 * there, and the adoptions allow Playwright's path); else lean where an amendment adopted it, else playwright.
 */
export function firefoxPathFor(study: string, arm: string, env: NodeJS.ProcessEnv = process.env, scope?: string): FirefoxPath {
  if (env.FIREFOX_TRIAL_PATH) return firefoxPathFromEnv(env);
  if (env.BROWSER_WS_ENDPOINT) return 'playwright';
  return leanPathAdopted(study, arm, scope) ? 'lean' : 'playwright';
}

export function parseFirefoxPath(value: string, what = '--firefox-path'): FirefoxPath {
  if (!firefoxPathChoices.includes(value as FirefoxPath)) throw new UsageError(`${what} takes ${firefoxPathChoices.join(' or ')}, not ${JSON.stringify(value)}`);
  return value as FirefoxPath;
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
    throw new RStackError(`FIREFOX_TRIAL_PATH=lean opens Firefox pages as tabs inside playwright-core ${WRAPPED_MAJOR_MINOR}x, and this is ${version}: use FIREFOX_TRIAL_PATH=playwright, or check pipeline/browser/firefox-path.ts against this version first`, { exitCode: 2 });
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
  if (!session || !browser._bidiPages) throw new RStackError('FIREFOX_TRIAL_PATH=lean: this browser is not driven over WebDriver BiDi');
  let host = hosts.find((h) => h.page === null);
  if (!host) {
    // a window of the default user context, holding a blank tab behind the pages it hosts. A browser
    // from firefox.launch has no context for it, so Playwright makes no page of it; one launched on
    // our own profile (launch.ts, through the proxy) lists it among its persistent context's pages,
    // which no trial uses (every trial makes its own context)
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
    if (!bidiPage) throw new RStackError(`FIREFOX_TRIAL_PATH=lean: Firefox made tab ${id}, and Playwright has no page for it`);
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
  if (!guid) throw new RStackError('FIREFOX_TRIAL_PATH=lean: this Browser object has no guid to find its server side by');
  if (!tabBrowsers.has(guid)) tabBrowsers.set(guid, []);
  browser.once('disconnected', () => tabBrowsers.delete(guid));
}

/** How many host windows this browser has made so far (tests, the bench): null when its pages open as windows (the playwright path). */
export function hostWindowCount(browser: Browser): number | null {
  const hosts = tabBrowsers.get((browser as unknown as { _guid?: string })._guid ?? '');
  return hosts ? hosts.length : null;
}
