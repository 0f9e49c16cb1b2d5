// Debian's firefox-esr started by the harness itself, not by Playwright: headless, a fresh profile
// whose prefs keep it off the network, and its WebDriver BiDi server on a free 127.0.0.1 port.
// Used where the browser must be left free for another client (an outside agent in Firefox,
// pipeline/agents/agent-browser.ts): Playwright would hold Firefox's one BiDi session for the
// browser's lifetime; here the harness opens sessions of its own and ends them.
//
//   spawn firefox-esr -headless --remote-debugging-port=0 -profile DIR ─▶ stderr
//   "WebDriver BiDi listening on ws://127.0.0.1:PORT" ─▶ sessions at ws://127.0.0.1:PORT/session
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RStackError } from '../../core/errors.ts';

// Off the network but for loopback: every other request goes to a proxy that is not there
// (Firefox never sends 127.0.0.1 to a proxy); no first run, no updates, no telemetry, no
// background services; unsigned extensions allowed (the harness's observer is one).
const prefs: Record<string, string | number | boolean> = {
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.share_proxy_settings': true,
  'network.proxy.allow_hijacking_localhost': false,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.http.speculative-parallel-limit': 0,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.startup.page': 0,
  'browser.aboutwelcome.enabled': false,
  'browser.newtabpage.enabled': false,
  'browser.sessionstore.resume_from_crash': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'app.update.auto': false,
  'app.normandy.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.blocklist.enabled': false,
  'xpinstall.signatures.required': false,
  'services.settings.server': 'data:,',
};

/** Firefox preferences by name, as a profile's user.js sets them. */
export type FirefoxPrefs = Record<string, string | number | boolean>;

/** Writes the profile's user.js: the prefs above, and `extra` over them (a proxy's, through-proxy.ts). */
export function writeUserPrefs(profile: string, extra: FirefoxPrefs = {}): void {
  const lines = Object.entries({ ...prefs, ...extra }).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`);
  fs.writeFileSync(path.join(profile, 'user.js'), `${lines.join('\n')}\n`);
}

/** Reads a profile's user.js back (ours, or the one playwright-core writes): one `user_pref(name, value);` a line. */
export function readUserPrefs(profile: string): FirefoxPrefs {
  const out: FirefoxPrefs = {};
  for (const m of fs.readFileSync(path.join(profile, 'user.js'), 'utf8').matchAll(/^user_pref\((".*?"),\s*(.*)\);$/gm)) {
    out[JSON.parse(m[1]!) as string] = JSON.parse(m[2]!) as string | number | boolean;
  }
  return out;
}

export interface FirefoxProcess {
  /** where WebDriver BiDi sessions are made: ws://127.0.0.1:PORT/session */
  sessionUrl: string;
  /** ends the browser (its whole process group) and waits for it */
  close(): Promise<void>;
}

const KILL_GRACE_MS = 3_000;

/** Starts firefox-esr on the profile; `prefs` are written over the defaults (a proxy's: through-proxy.ts). */
export async function launchFirefoxProcess(executable: string, profile: string, timeoutMs = 30_000, prefs: Record<string, string | number | boolean> = {}): Promise<FirefoxProcess> {
  writeUserPrefs(profile, prefs);
  const child = spawn(executable, ['-headless', '--remote-debugging-port=0', '-no-remote', '-profile', profile, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group: closing it ends its content processes too
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // gone already
    }
  };
  const close = async () => {
    killGroup('SIGTERM');
    const timer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    await exited;
    clearTimeout(timer);
    killGroup('SIGKILL'); // a content process that outlived its parent
  };
  let stderr = '';
  const endpoint = await new Promise<string>((resolve, reject) => {
    const fail = (why: string) => { clearTimeout(timer); reject(new RStackError(`${executable}: ${why}; its stderr: ${stderr.slice(-1000)}`)); };
    const timer = setTimeout(() => fail(`no "WebDriver BiDi listening on" line within ${timeoutMs} ms`), timeoutMs);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
      const found = stderr.match(/WebDriver BiDi listening on (ws:\/\/127\.0\.0\.1:\d+)/);
      if (found) { clearTimeout(timer); resolve(found[1]!); }
    });
    child.once('error', (e) => fail(`could not start: ${e.message}`));
    child.once('exit', (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  // the rest of its stderr is read and dropped, so that the pipe never fills
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  return { sessionUrl: `${endpoint}/session`, close };
}
