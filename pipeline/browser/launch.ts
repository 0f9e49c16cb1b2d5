// Launching Debian's browsers through playwright-core 1.64 (never a downloaded browser):
// Chromium (raw CDP available through newCDPSession) and Firefox ESR over WebDriver BiDi
// (Playwright's moz-firefox channel). Each launch gets a fresh temporary profile from Playwright.
import fs from 'node:fs';
import { chromium, firefox, type Browser } from 'playwright-core';
import { UsageError, RStackError } from '../../core/errors.ts';
import { connectBrowser } from './remote.ts';

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

/** The launch options of Debian's browser: the same for a local launch and a browser server (server.ts). */
export function launchOptions(name: BrowserName) {
  const path = executablePath(name);
  return name === 'chromium'
    ? { executablePath: path, args: chromiumArgs, headless: true }
    : ({ executablePath: path, headless: true, channel: 'moz-firefox' } as Parameters<typeof firefox.launch>[0]);
}

/** What a run records of the browser it will use (data/runs.jsonl): the executable launchBrowser starts, or the endpoint it connects to. */
export function browserExecutable(name: BrowserName, endpoint: string | null = process.env.BROWSER_WS_ENDPOINT || null): string {
  return endpoint ?? executablePath(name);
}

/** A fresh local browser, or, with BROWSER_WS_ENDPOINT set (endpoint), a connection to one that runs already (remote.ts); null: always local. */
export async function launchBrowser(name: BrowserName, endpoint: string | null = process.env.BROWSER_WS_ENDPOINT || null): Promise<LaunchedBrowser> {
  if (endpoint) return connectBrowser(name, endpoint);
  const browser = await (name === 'chromium' ? chromium : firefox).launch(launchOptions(name));
  return { name, version: browser.version(), browser };
}
