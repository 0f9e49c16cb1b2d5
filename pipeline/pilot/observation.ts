// The time-zero observation: what a user sees of a condition's page at the moment the agent begins —
// the accessibility snapshot of the body (roles, names, visible text), taken in Chromium after the
// page loaded and before the agent-start signal (so an Access condition still shows its loading
// line). The page's hidden configuration (a JSON script block) and source never reach it.
import type { Browser } from 'playwright-core';
import type { FixtureServer } from '../../fixtures/server.ts';
import { layersApps } from '../../fixtures/layers/index.ts';
import type { LayersTask } from '../../core/layers.ts';

export async function timeZeroObservation(browser: Browser, server: FixtureServer, task: LayersTask): Promise<string> {
  server.load(layersApps[task.template](task));
  const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/`, { waitUntil: 'load' });
    return await page.locator('body').ariaSnapshot();
  } finally {
    await context.close();
    server.reset();
  }
}
