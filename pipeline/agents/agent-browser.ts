// The browser an outside agent drives: a fresh browser process with a fresh profile, the start page
// open and watched by the harness, and the endpoints the agent's own client connects to.
//
//   Chromium: Playwright holds the browser over its pipe; --remote-debugging-port=0 opens the
//     DevTools HTTP endpoint as well. The real port is read from the profile's DevToolsActivePort
//     file and checked on /json/version, whose webSocketDebuggerUrl is the browser's CDP WebSocket.
//     The start page is opened and watched through Playwright (condition.ts, playwrightStage).
//       cdp_url     http://127.0.0.1:PORT        (Playwright connectOverCDP, browser-use, Stagehand, Playwright MCP)
//       ws_endpoint ws://127.0.0.1:PORT/devtools/browser/…  (Puppeteer connect)
//   Firefox ESR: WebDriver BiDi only (its CDP is gone), and it takes one BiDi session at a time, so
//     Playwright (which keeps its session for the browser's lifetime) is not used. The harness
//     starts firefox-esr itself (pipeline/browser/firefox-process.ts) and, in sessions of its own
//     that it ends before the agent begins (pipeline/browser/bidi.ts):
//       1. at launch: installs the observer extension (observer-extension.ts), which watches every
//          document from its isolated world and reports to a harness listener on 127.0.0.1;
//       2. per trace (firefoxStage): opens the start page and waits for its surface (reported by
//          the observer), then ends its session;
//     the agent then makes the browser's next session.
//       ws_endpoint ws://127.0.0.1:PORT/session  (Puppeteer connect({ browserWSEndpoint, protocol: 'webDriverBiDi' }))
//     No cdp_url in Firefox.
//
// Outside agents take the first context and its first page: the start page is opened in the
// default context of the fresh profile (Chromium: a persistent launch; Firefox: its first tab).
// With `proxy` (the fault proxy), the browser reaches every origin through it, loopback included,
// and trusts its CA (pipeline/browser/through-proxy.ts), so that an agent over CDP or BiDi meets
// the same faults as the harness's own policies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { RStackError } from '../../core/errors.ts';
import { chromiumArgs, executablePath, type BrowserName } from '../browser/launch.ts';
import { chromiumProxyArgs, firefoxProxyPrefs, trustInProfile, type ProxySettings } from '../browser/through-proxy.ts';
import { connectBiDi } from '../browser/bidi.ts';
import { launchFirefoxProcess } from '../browser/firefox-process.ts';
import { playwrightStage, type Stage } from '../layers/condition.ts';
import { startObserver, type Observer } from './observer-extension.ts';

export interface AgentEndpoints {
  cdp_url?: string;
  ws_endpoint?: string;
}

export interface AgentBrowser {
  name: BrowserName;
  version: string;
  /** where the harness opens and watches the start page (condition.ts) */
  stage: Stage;
  /** Chromium: the default context, the one an outside client finds first (Firefox: none, the harness holds no session) */
  context?: BrowserContext;
  endpoints: AgentEndpoints;
  /** the fresh profile folder (removed by close) */
  profile: string;
  /** closes the browser and removes its profile */
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads DevToolsActivePort (port, then the browser target's path) once Chromium has written it. */
async function devToolsActivePort(userDataDir: string, timeoutMs = 10_000): Promise<{ port: number; path: string }> {
  const file = path.join(userDataDir, 'DevToolsActivePort');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const [port, wsPath] = fs.readFileSync(file, 'utf8').split('\n');
      if (port && wsPath && Number(port) > 0) return { port: Number(port), path: wsPath.trim() };
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new RStackError(`Chromium did not write ${file} within ${timeoutMs} ms (was --remote-debugging-port dropped?)`);
    await sleep(20);
  }
}

/** The DevTools endpoint, checked: /json/version answers and names the browser WebSocket. */
async function chromiumEndpoints(userDataDir: string): Promise<AgentEndpoints> {
  const active = await devToolsActivePort(userDataDir);
  const cdp_url = `http://127.0.0.1:${active.port}`;
  const res = await fetch(`${cdp_url}/json/version`);
  if (!res.ok) throw new RStackError(`${cdp_url}/json/version answered ${res.status}`);
  const version = (await res.json()) as { webSocketDebuggerUrl?: string };
  const ws_endpoint = version.webSocketDebuggerUrl ?? `ws://127.0.0.1:${active.port}${active.path}`;
  if (!ws_endpoint.endsWith(active.path)) throw new RStackError(`${cdp_url}/json/version names ${ws_endpoint}, DevToolsActivePort ${active.path}`);
  return { cdp_url, ws_endpoint };
}

export interface AgentBrowserOptions {
  /** every request through this proxy (and its CA trusted), as launchBrowser's { proxy } */
  proxy?: ProxySettings;
}

export async function launchAgentBrowser(name: BrowserName, options: AgentBrowserOptions = {}): Promise<AgentBrowser> {
  const { proxy } = options;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rsb-agent-${name}-`));
  const removeProfile = () => fs.rmSync(userDataDir, { recursive: true, force: true });
  try {
    if (name === 'chromium') {
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: executablePath('chromium'),
        headless: true,
        // the DevTools HTTP endpoint, on 127.0.0.1 only, beside Playwright's own pipe
        args: [...chromiumArgs, ...(proxy ? chromiumProxyArgs(proxy) : []), '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', '--remote-allow-origins=*'],
        viewport: { width: 900, height: 900 },
      });
      const endpoints = await chromiumEndpoints(userDataDir);
      return {
        name,
        version: context.browser()?.version() ?? 'unknown',
        stage: playwrightStage(context),
        context,
        endpoints,
        profile: userDataDir,
        close: async () => { await context.close().catch(() => {}); removeProfile(); },
      };
    }
    return await launchFirefoxForAgent(userDataDir, removeProfile, proxy);
  } catch (error) {
    removeProfile();
    throw error;
  }
}

/** how long the start page's surface may take to show (as condition.ts waits in Chromium) */
const SURFACE_TIMEOUT_MS = 10_000;
/** a report travels content script ─▶ background ─▶ HTTP (about 10 ms idle): room for a loaded machine */
const FIREFOX_REPORT_GRACE_MS = 500;

interface BrowsingContextTree { contexts: { context: string; url: string }[] }

async function launchFirefoxForAgent(profile: string, removeProfile: () => void, proxy: ProxySettings | undefined): Promise<AgentBrowser> {
  const observer = await startObserver(path.join(profile, 'rstackbench-observer'));
  let firefoxProcess: Awaited<ReturnType<typeof launchFirefoxProcess>> | undefined;
  try {
    if (proxy?.ca) await trustInProfile(profile, proxy.ca.certPath);
    // the observer's reports are the harness's, not the page's: they go direct, never through the proxy
    const proxyPrefs = proxy ? { ...firefoxProxyPrefs(proxy), 'network.proxy.no_proxies_on': `127.0.0.1:${observer.port}` } : {};
    firefoxProcess = await launchFirefoxProcess(executablePath('firefox'), profile, undefined, proxyPrefs);
    const { sessionUrl } = firefoxProcess;
    // the first session: the browser's version, and the observer installed for its lifetime
    const version = await inSession(sessionUrl, async (send, capabilities) => {
      await send('webExtension.install', { extensionData: { type: 'path', path: observer.extensionDir } });
      return capabilities.browserVersion ?? 'unknown';
    });
    const launched = firefoxProcess;
    return {
      name: 'firefox',
      version,
      stage: firefoxStage(sessionUrl, observer),
      endpoints: { ws_endpoint: sessionUrl },
      profile,
      close: async () => {
        await launched.close();
        await observer.close();
        removeProfile();
      },
    };
  } catch (error) {
    await firefoxProcess?.close();
    await observer.close();
    throw error;
  }
}

type Send = <T = Record<string, unknown>>(method: string, params?: Record<string, unknown>) => Promise<T>;

/** One WebDriver BiDi session of the harness's, always ended, so that the next client can make its own. */
async function inSession<T>(sessionUrl: string, work: (send: Send, capabilities: { browserVersion?: string }) => Promise<T>): Promise<T> {
  const connection = await connectBiDi(sessionUrl);
  try {
    const { capabilities } = await connection.send<{ capabilities: { browserVersion?: string } }>('session.new', { capabilities: {} });
    try {
      return await work((method, params) => connection.send(method, params), capabilities);
    } finally {
      await connection.send('session.end').catch(() => {});
    }
  } finally {
    await connection.close();
  }
}

/** The start page in Firefox's first tab, watched by the observer; the harness's session ends before the agent's begins. */
function firefoxStage(sessionUrl: string, observer: Observer): Stage {
  return {
    reportGraceMs: FIREFOX_REPORT_GRACE_MS,
    open: (url, { surfaceHeld, moments }) =>
      inSession(sessionUrl, async (send) => {
        observer.listen(moments);
        const tree = await send<BrowsingContextTree>('browsingContext.getTree', { maxDepth: 0 });
        const tab = tree.contexts[0];
        if (!tab) throw new RStackError('Firefox has no tab to open the start page in');
        await send('browsingContext.setViewport', { context: tab.context, viewport: { width: 900, height: 900 } });
        const navigated = await send<{ url: string }>('browsingContext.navigate', { context: tab.context, url, wait: 'complete' });
        // the page fetches its surface, which may land just after load
        if (!surfaceHeld && !(await observer.revealed(SURFACE_TIMEOUT_MS))) {
          throw new RStackError(`the start page's surface did not show within ${SURFACE_TIMEOUT_MS} ms (no report from the observer extension)`);
        }
        return { startUrl: navigated.url };
      }),
  };
}
