// A Playwright browser server of Debian's browser (BrowserType.launchServer), on 127.0.0.1: what a
// run connects to with BROWSER_WS_ENDPOINT (remote.ts). In a Kubernetes pod it is the sidecar the
// runner reaches over the pod's own loopback (deploy/). The client and the server must be the same
// Playwright version (playwright-core is pinned in package.json).
import { chromium, firefox, type BrowserServer } from 'playwright-core';
import { launchOptions, type BrowserName } from './launch.ts';

export interface BrowserServerOptions {
  /** 0: any free port */
  port?: number;
  /** the endpoint's path, so that it is known before the server starts (default: a random one) */
  wsPath?: string;
}

export async function startBrowserServer(name: BrowserName, options: BrowserServerOptions = {}): Promise<BrowserServer> {
  const type = name === 'chromium' ? chromium : firefox;
  return type.launchServer({ ...launchOptions(name), host: '127.0.0.1', port: options.port ?? 0, wsPath: options.wsPath });
}
