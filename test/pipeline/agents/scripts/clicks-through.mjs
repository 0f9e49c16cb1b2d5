// Does a configuration-card task the way a user would, over CDP with Playwright's connectOverCDP:
// the first context's first page, the card whose heading is the project, Mode, Save change.
import { chromium } from 'playwright-core';
const { instruction } = JSON.parse(process.env.RSTACKBENCH_TASK);
const [, project, mode] = instruction.match(/project "([^"]+)", set Mode to "([^"]+)"/);
const browser = await chromium.connectOverCDP(process.env.RSTACKBENCH_CDP_URL);
const page = browser.contexts()[0].pages()[0];
const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: project, exact: true }) });
await card.getByLabel('Mode').selectOption(mode);
await card.getByRole('button', { name: 'Save change' }).click();
await card.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
await browser.close(); // disconnects; the harness owns the browser
console.log(JSON.stringify({ done: true, actions: 2 }));
