// The browser an outside agent drives: a fresh browser process with a fresh profile, whose one
// default context the harness instruments and opens the start page in, and whose endpoints the
// agent's own client connects to.
//
//   Chromium: Playwright holds the browser over its pipe; --remote-debugging-port=0 opens the
//     DevTools HTTP endpoint as well. The real port is read from the profile's DevToolsActivePort
//     file and checked on /json/version, whose webSocketDebuggerUrl is the browser's CDP WebSocket.
//       cdp_url     http://127.0.0.1:PORT        (Playwright connectOverCDP, browser-use, Stagehand, Playwright MCP)
//       ws_endpoint ws://127.0.0.1:PORT/devtools/browser/…  (Puppeteer connect)
//   Firefox ESR: WebDriver BiDi only (its CDP is gone), and Firefox ESR 153 takes one BiDi session
//     and one connection to it: a second session.new answers "session not created: Maximum number
//     of active sessions", and a second WebSocket to /session/<id> is refused (both tried here). The
//     harness's Playwright holds that session, so no outside client can join it: in Firefox the
//     browser serves in-process agents (which get the page) and gives no endpoint;
//     requireOutsideAgentEndpoints says so before a run starts.
//
// Outside agents take the first context and its first page: the start page is opened in the
// default context of a persistent launch (a fresh temporary user-data dir), so that is what they find.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, firefox, type BrowserContext } from 'playwright-core';
import { RStackError, UsageError } from '../../core/errors.ts';
import { chromiumArgs, executablePath, type BrowserName } from '../browser/launch.ts';

export interface AgentEndpoints {
  cdp_url?: string;
  ws_endpoint?: string;
}

export interface AgentBrowser {
  name: BrowserName;
  version: string;
  /** the default context: the one an outside client finds first */
  context: BrowserContext;
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

export async function launchAgentBrowser(name: BrowserName): Promise<AgentBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), `rsb-agent-${name}-`));
  const removeProfile = () => fs.rmSync(userDataDir, { recursive: true, force: true });
  try {
    if (name === 'chromium') {
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: executablePath('chromium'),
        headless: true,
        // the DevTools HTTP endpoint, on 127.0.0.1 only, beside Playwright's own pipe
        args: [...chromiumArgs, '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1', '--remote-allow-origins=*'],
        viewport: { width: 900, height: 900 },
      });
      const endpoints = await chromiumEndpoints(userDataDir);
      return {
        name,
        version: context.browser()?.version() ?? 'unknown',
        context,
        endpoints,
        profile: userDataDir,
        close: async () => { await context.close().catch(() => {}); removeProfile(); },
      };
    }
    const context = await firefox.launchPersistentContext(userDataDir, {
      executablePath: executablePath('firefox'),
      headless: true,
      channel: 'moz-firefox',
      viewport: { width: 900, height: 900 },
    } as Parameters<typeof firefox.launchPersistentContext>[1]);
    return {
      name,
      version: context.browser()?.version() ?? 'unknown',
      context,
      endpoints: {},
      profile: userDataDir,
      close: async () => { await context.close().catch(() => {}); removeProfile(); },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}

/** Outside agents need an endpoint of their own: Chromium gives one; Firefox cannot (see above). */
export function requireOutsideAgentEndpoints(name: BrowserName): void {
  if (name === 'firefox') {
    throw new UsageError(
      'BROWSER=firefox: an outside agent cannot connect to Firefox ESR while the harness observes it — Firefox takes one ' +
        'WebDriver BiDi session and one connection to it, and the harness holds it. Run outside agents with BROWSER=chromium.',
    );
  }
}
