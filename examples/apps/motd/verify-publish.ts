// The verifier (@rstackbench/verifier, verifier/) on the motd app behind a running fault proxy: one
// publish under plain `verify`, then one under `verifyWithRetry`, each read back from the app's own
// store (its postcondition command), never from its pages. docs/fault-proxy.md, step 9.
//   make fault-proxy SPEC=examples/apps/motd/spec.json TRANSPORT=lost-response TRANSPORT_SEVERITY=3 ARGS="--port 8652"
//   node --import tsx examples/apps/motd/verify-publish.ts [chromium|firefox] [http://127.0.0.1:8652]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, parseBrowserName } from '../../../pipeline/browser/launch.ts';
import { attach, verifyWithRetry } from '../../../verifier/src/index.ts';
import { publishContract } from './publish-contract.ts';
import type { Page } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const origin = 'http://127.0.0.1:8653';
const browserName = parseBrowserName(process.argv[2]);
const proxy = process.argv[3] ?? 'http://127.0.0.1:8652';
/** the store, through the app file's own commands */
const stored = () => execFileSync('php', ['read.php', 'message'], { cwd: here, encoding: 'utf8' }).trim();
const reset = () => execFileSync('cp', ['seed.txt', 'store.txt'], { cwd: here });

const contract = (page: Page, message: string) => publishContract(page, message, stored);

const { browser } = await launchBrowser(browserName, null, { proxy: { server: proxy } });
try {
  for (const how of ['verify', 'verifyWithRetry'] as const) {
    reset();
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/`);
    const message = how === 'verify' ? 'Closed on Monday' : 'Open 9 to 5';
    await page.getByLabel('Message').fill(message);
    const verifier = attach(page);
    if (how === 'verify') {
      const record = await verifier.verify(contract(page, message));
      process.stdout.write(`${browserName} verify: ${record.state} (${record.reason}); the store holds ${JSON.stringify(stored())}\n`);
    } else {
      const result = await verifyWithRetry(verifier, page, contract(page, message), { attempts: 3, settleMs: 500 });
      process.stdout.write(`${browserName} verifyWithRetry: ${result.state}, ${result.ended} after ${result.records.length} attempt(s), the first ${result.records[0]!.state}; the store holds ${JSON.stringify(stored())}\n`);
    }
    verifier.detach();
    await page.context().close();
  }
} finally {
  await browser.close();
}
