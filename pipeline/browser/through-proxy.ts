// A browser that reaches every origin, loopback included, through one HTTP(S) proxy (the fault
// proxy, proxy/), and trusts the proxy's CA for the run, alone among all programs:
//   Chromium: --proxy-server, --proxy-bypass-list=<-loopback> (Chromium sends 127.0.0.1 and
//     localhost direct unless told not to), and --ignore-certificate-errors-spki-list with the
//     CA's SPKI hash (Chromium honours it with the --user-data-dir Playwright always gives);
//   Firefox: network.proxy.* prefs for http and https, allow_hijacking_localhost (Firefox sends
//     loopback direct otherwise) and localhost kept a secure context when it goes through the
//     proxy (as it is without one); the CA added to the fresh profile's own NSS store with certutil
//     (libnss3-tools), so that nothing outside that profile trusts it.
// ignoreHTTPSErrors is never used: it would accept any certificate, not trust one CA.
import fs from 'node:fs';
import path from 'node:path';
import { RStackError } from '../../core/errors.ts';
import { runCommand } from '../../core/command.ts';

export interface ProxySettings {
  /** the proxy's URL, http://127.0.0.1:PORT */
  server: string;
  /** the run's CA the browser must trust (HTTPS through the proxy), or none */
  ca?: { certPath: string; spki: string } | null;
}

function proxyAddress(proxy: ProxySettings): { host: string; port: number } {
  const url = new URL(proxy.server);
  if (url.protocol !== 'http:' || !url.port) throw new RStackError(`the proxy server must be http://HOST:PORT, not ${proxy.server}`, { exitCode: 2 });
  return { host: url.hostname, port: Number(url.port) };
}

/** Chromium's flags for the proxy (and for trusting its CA). */
export function chromiumProxyArgs(proxy: ProxySettings): string[] {
  proxyAddress(proxy);
  return [
    `--proxy-server=${proxy.server}`,
    '--proxy-bypass-list=<-loopback>',
    ...(proxy.ca ? [`--ignore-certificate-errors-spki-list=${proxy.ca.spki}`] : []),
  ];
}

/** Firefox's prefs for the proxy. */
export function firefoxProxyPrefs(proxy: ProxySettings): Record<string, string | number | boolean> {
  const { host, port } = proxyAddress(proxy);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': host,
    'network.proxy.http_port': port,
    'network.proxy.ssl': host,
    'network.proxy.ssl_port': port,
    'network.proxy.share_proxy_settings': true,
    'network.proxy.no_proxies_on': '',
    'network.proxy.allow_hijacking_localhost': true,
    'network.proxy.testing_localhost_is_secure_when_hijacked': true,
    // background services that would reach the proxy (which refuses them) every second and fill its log
    'services.settings.server': 'data:,',
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'app.normandy.enabled': false,
    'browser.safebrowsing.malware.enabled': false,
    'browser.safebrowsing.phishing.enabled': false,
    'browser.safebrowsing.downloads.enabled': false,
  };
}

const NSS_NICKNAME = 'RStackBench fault proxy CA (this run only)';

/** Makes the NSS store of a fresh Firefox profile folder with the run's CA trusted for TLS servers in it. */
export async function trustInProfile(profile: string, caPath: string): Promise<void> {
  fs.mkdirSync(profile, { recursive: true });
  const db = `sql:${profile}`;
  const hint = 'certutil comes with libnss3-tools: apt-get install -y libnss3-tools (make setup does)';
  if (!fs.existsSync(path.join(profile, 'cert9.db'))) await runCommand('certutil', ['-N', '-d', db, '--empty-password'], { hint });
  await runCommand('certutil', ['-A', '-d', db, '-n', NSS_NICKNAME, '-t', 'C,,', '-i', caPath], { hint });
}
