// How the harness watches a Firefox page that an outside agent drives: a WebExtension, installed
// by the harness before the agent connects, whose content script runs the page watch
// (pipeline/layers/watch.ts) at document_start in every frame — in the extension's isolated world,
// so the page's own scripts never see it — and whose background script posts each moment to a
// listener of the harness on 127.0.0.1 (not the app's server: nothing the app serves changes).
//
//   content script (every document) ─runtime.sendMessage─▶ background ─POST─▶ 127.0.0.1:PORT/<token>
//   ─▶ the moments of the page that is open (PageMoments) ─▶ condition.ts ─▶ scoring.ts
//
// The extension carries the listener's address and a random token (so that nothing else on the
// machine can post a moment), and nothing of the condition: it is written before any condition
// is known. Each moment is stamped in the page (epoch ms), as the Chromium binding stamps it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pageWatch } from '../layers/watch.ts';
import type { PageMoments } from '../layers/condition.ts';

export const OBSERVER_EXTENSION_ID = 'observer@rstackbench.invalid';

/** The extension's files for a listener at `reportUrl`: manifest.json, content.js, background.js. */
export function observerExtensionFiles(reportUrl: string): Record<string, string> {
  const manifest = {
    manifest_version: 2,
    name: 'RStackBench observer',
    version: '1.0',
    description: 'Reports when a success indication first shows and when the surface appears, to the harness on 127.0.0.1.',
    browser_specific_settings: { gecko: { id: OBSERVER_EXTENSION_ID } },
    permissions: ['http://127.0.0.1/*'],
    background: { scripts: ['background.js'] },
    content_scripts: [{ matches: ['<all_urls>'], match_about_blank: true, js: ['content.js'], run_at: 'document_start', all_frames: true }],
  };
  // each document reports its first success once (the harness keeps the first of all documents)
  const content = `let successSent = false;
const report = (kind, at) => browser.runtime.sendMessage({ kind, at });
${pageWatch({
  successShown: (t) => `{ if (!successSent) { successSent = true; report('success', ${t}); } }`,
  revealed: (t) => `report('revealed', ${t})`,
})}`;
  const background = `browser.runtime.onMessage.addListener((moment) => {
  fetch(${JSON.stringify(reportUrl)}, { method: 'POST', body: JSON.stringify(moment) }).catch(() => {});
});
`;
  return { 'manifest.json': `${JSON.stringify(manifest, null, 2)}\n`, 'content.js': content, 'background.js': background };
}

export interface Observer {
  /** the extension's folder, to install (webExtension.install, type path) */
  extensionDir: string;
  /** the listener's port on 127.0.0.1 (a browser going through a proxy sends its reports direct) */
  port: number;
  /** where the moments go from now on (the page being opened) */
  listen(moments: PageMoments): void;
  /** resolves once the surface was reported since listen() (true), or after timeoutMs (false) */
  revealed(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts the listener and writes the extension into `dir` (a folder of the browser's profile). */
export async function startObserver(dir: string): Promise<Observer> {
  const token = crypto.randomBytes(16).toString('hex');
  let moments: PageMoments | undefined;
  let revealSeen = false;
  const revealWaiters = new Set<(seen: boolean) => void>();
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== `/${token}`) {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      res.writeHead(204).end();
      let moment: { kind?: unknown; at?: unknown };
      try {
        moment = JSON.parse(body) as typeof moment;
      } catch {
        return;
      }
      if (typeof moment.at !== 'number' || !Number.isFinite(moment.at)) return;
      if (moment.kind === 'success') moments?.successShown(moment.at);
      if (moment.kind === 'revealed') {
        moments?.revealed(moment.at);
        revealSeen = true;
        for (const waiter of revealWaiters) waiter(true);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(observerExtensionFiles(`http://127.0.0.1:${port}/${token}`))) fs.writeFileSync(path.join(dir, name), text);
  return {
    extensionDir: dir,
    port,
    listen: (next) => { moments = next; revealSeen = false; },
    revealed: (timeoutMs) =>
      new Promise((resolve) => {
        if (revealSeen) return resolve(true);
        const done = (seen: boolean) => { clearTimeout(timer); revealWaiters.delete(done); resolve(seen); };
        const timer = setTimeout(() => done(false), timeoutMs);
        revealWaiters.add(done);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
