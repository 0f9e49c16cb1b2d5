// Launching Debian's browsers through playwright-core 1.64 (never a downloaded browser):
// Chromium (raw CDP available through newCDPSession) and Firefox ESR over WebDriver BiDi
// (Playwright's moz-firefox channel). Each launch gets a fresh temporary profile from Playwright,
// but Firefox trusting a proxy's CA: its profile is made here first, the CA in its NSS store
// (through-proxy.ts), and the browser launched on it (a persistent context, whose browser()
// makes contexts as any other), the profile removed once browser.close() has ended the process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, firefox, type Browser } from 'playwright-core';
import { UsageError, RStackError } from '../../core/errors.ts';
import { connectBrowser } from './remote.ts';
import { chromiumProxyArgs, firefoxProxyPrefs, trustInProfile, type ProxySettings } from './through-proxy.ts';
import { LEAN_PREFS, firefoxPathFromEnv, openPagesAsTabs, type FirefoxPath } from './firefox-path.ts';

export type { ProxySettings };

export type BrowserName = 'chromium' | 'firefox';
export const browserNames: readonly BrowserName[] = ['chromium', 'firefox'];

export interface LaunchedBrowser { name: BrowserName; version: string; browser: Browser }

const executables: Record<BrowserName, { env: string; candidates: string[]; apt: string }> = {
  chromium: { env: 'CHROMIUM_PATH', candidates: ['/usr/bin/chromium', '/usr/bin/chromium-browser'], apt: 'chromium' },
  firefox: { env: 'FIREFOX_PATH', candidates: ['/usr/bin/firefox-esr', '/usr/bin/firefox'], apt: 'firefox-esr' },
};

// Without these Chromium keeps dialling the (closed) network; as root it needs --no-sandbox.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-features=Translate,OptimizationHints,MediaRouter',
];

export function parseBrowserName(value: string | undefined, fallback: BrowserName = 'chromium'): BrowserName {
  const v = value ?? process.env.BROWSER ?? fallback;
  if (!browserNames.includes(v as BrowserName)) throw new UsageError(`unknown browser ${JSON.stringify(v)}: use chromium or firefox`);
  return v as BrowserName;
}

export function executablePath(name: BrowserName): string {
  const spec = executables[name];
  const fromEnv = process.env[spec.env];
  const found = fromEnv ?? spec.candidates.find((p) => fs.existsSync(p));
  if (!found || !fs.existsSync(found)) {
    throw new RStackError(`${name} is not installed: apt-get install -y ${spec.apt} (or set ${spec.env}); make setup does it`, { exitCode: 2 });
  }
  return found;
}

/**
 * How a launch differs from the default: `proxy`, every request through it (through-proxy.ts);
 * `firefoxPath`, the path a Firefox trial takes (firefox-path.ts; default FIREFOX_TRIAL_PATH, else playwright).
 */
export interface LaunchExtras {
  proxy?: ProxySettings;
  firefoxPath?: FirefoxPath;
}

/** The launch options of Debian's browser: the same for a local launch and a browser server (server.ts); the lean path's preferences only when `firefoxPath` says lean. */
export function launchOptions(name: BrowserName, extras: LaunchExtras = {}) {
  const executable = executablePath(name);
  const { proxy } = extras;
  if (name === 'chromium') return { executablePath: executable, args: proxy ? [...chromiumArgs, ...chromiumProxyArgs(proxy)] : chromiumArgs, headless: true };
  const prefs = { ...(proxy ? firefoxProxyPrefs(proxy) : {}), ...(extras.firefoxPath === 'lean' ? LEAN_PREFS : {}) };
  return { executablePath: executable, headless: true, channel: 'moz-firefox', ...(Object.keys(prefs).length ? { firefoxUserPrefs: prefs } : {}) } as Parameters<typeof firefox.launch>[0];
}

/** What a run records of the browser it will use (data/runs.jsonl): the executable launchBrowser starts, or the endpoint it connects to. */
export function browserExecutable(name: BrowserName, endpoint: string | null = process.env.BROWSER_WS_ENDPOINT || null): string {
  return endpoint ?? executablePath(name);
}

/**
 * A fresh local browser, or, with BROWSER_WS_ENDPOINT set (endpoint), a connection to one that runs
 * already (remote.ts); null: always local. With `proxy`, every request goes through it, and with its
 * CA the browser trusts that CA (a browser that runs already cannot be made to: refused).
 */
export async function launchBrowser(name: BrowserName, endpoint: string | null = process.env.BROWSER_WS_ENDPOINT || null, extras: LaunchExtras = {}): Promise<LaunchedBrowser> {
  const firefoxPath = name === 'firefox' ? (extras.firefoxPath ?? firefoxPathFromEnv()) : 'playwright';
  if (endpoint) {
    if (extras.proxy) throw new UsageError(`a browser that runs already (BROWSER_WS_ENDPOINT=${endpoint}) cannot be sent through the fault proxy: launch one here`);
    if (firefoxPath === 'lean') throw new UsageError(`FIREFOX_TRIAL_PATH=lean works inside a browser launched here, not one that runs already (BROWSER_WS_ENDPOINT=${endpoint})`);
    return connectBrowser(name, endpoint);
  }
  const withPath = { ...extras, firefoxPath };
  const launched = name === 'firefox' && extras.proxy?.ca
    ? await launchFirefoxTrusting(withPath)
    : await (async () => {
      const browser = await (name === 'chromium' ? chromium : firefox).launch(launchOptions(name, withPath));
      return { name, version: browser.version(), browser };
    })();
  if (firefoxPath === 'lean') openPagesAsTabs(launched.browser);
  return launched;
}

/** Firefox on a profile of our own whose NSS store trusts the proxy's CA; the profile goes when the browser does. */
async function launchFirefoxTrusting(extras: LaunchExtras): Promise<LaunchedBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-firefox-'));
  const removeProfile = () => fs.rmSync(profile, { recursive: true, force: true });
  try {
    await trustInProfile(profile, extras.proxy!.ca!.certPath);
    const context = await firefox.launchPersistentContext(profile, launchOptions('firefox', extras) as Parameters<typeof firefox.launchPersistentContext>[1]);
    const browser = context.browser();
    if (!browser) throw new RStackError('Firefox launched on its own profile gave no browser to make contexts in');
    // Firefox writes its profile until its process is gone, which browser.close() waits for (its
    // 'disconnected' comes earlier): the profile goes after close, or a while after a crash
    const close = browser.close.bind(browser);
    browser.close = async (options) => { try { await close(options); } finally { removeProfile(); } };
    browser.once('disconnected', () => { setTimeout(removeProfile, 10_000).unref(); });
    return { name: 'firefox', version: browser.version(), browser };
  } catch (error) {
    removeProfile();
    throw error;
  }
}
