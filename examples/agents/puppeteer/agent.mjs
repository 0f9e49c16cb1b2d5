// An outside agent for RStackBench, with Puppeteer over the browser's WebSocket
// (RSTACKBENCH_WS_ENDPOINT): CDP in Chromium, WebDriver BiDi in Firefox (where there is no
// RSTACKBENCH_CDP_URL) — a different client than the harness's own.
// It reads the task as a user would give it (RSTACKBENCH_TASK), does it on the page that is open,
// trusts what the page says, and prints its claim as the last line of stdout.
import puppeteer from 'puppeteer-core';

const { instruction } = JSON.parse(process.env.RSTACKBENCH_TASK);
const claim = (done, message) => console.log(JSON.stringify(message ? { done, message, actions } : { done, actions }));
let actions = 0;

const browser = await puppeteer.connect({
  browserWSEndpoint: process.env.RSTACKBENCH_WS_ENDPOINT,
  protocol: process.env.RSTACKBENCH_CDP_URL ? 'cdp' : 'webDriverBiDi',
  defaultViewport: null,
});
try {
  const [page] = await browser.pages();
  const card = instruction.match(/project "([^"]+)", set Mode to "([^"]+)"/);
  const profile = instruction.match(/account (\S+), set the display name to "([^"]+)" and the time zone to "([^"]+)"/);
  const record = instruction.match(/Delete the record "([^"]+)"/);
  if (card) {
    const [, project, mode] = card;
    const scope = await findBlock(page, 'section.card', 'h2', project);
    await (await scope.$('select')).select(mode); actions++;
    await (await scope.$('button')).click(); actions++;
    await page.waitForFunction((el) => el.querySelector('[role=status]').textContent === 'Saved', { timeout: 5000 }, scope);
    claim(true);
  } else if (profile) {
    const [, account, name, zone] = profile;
    const scope = await findBlock(page, 'form.profile', 'h2', `Account ${account}`);
    const input = await scope.$('input[name=display_name]');
    await input.click({ count: 3 }); await input.type(name); actions++;
    await (await scope.$('select[name=timezone]')).select(zone); actions++;
    await (await scope.$('button[type=submit]')).click(); actions++;
    await page.waitForFunction((el) => el.querySelector('[role=status]').textContent === 'Profile saved', { timeout: 5000 }, scope);
    claim(true);
  } else if (record) {
    const [, label] = record;
    const row = await findBlock(page, 'li.record', '.label', label);
    await (await row.$('button')).click(); actions++;
    const confirm = await page.waitForSelector('[role=dialog] button.confirm', { timeout: 5000 });
    await confirm.click(); actions++;
    await page.waitForFunction((l) => document.getElementById('status')?.textContent === `Deleted ${l}`, { timeout: 5000 }, label);
    claim(true);
  } else {
    claim(false, `I do not know how to do: ${instruction}`);
  }
} catch (error) {
  claim(false, String(error.message ?? error).split('\n')[0]);
} finally {
  await browser.disconnect(); // the harness owns the browser: leave it open
}

/** The block (card, form, row) whose heading/label reads exactly `text`, waiting up to 5 s for it. */
async function findBlock(page, block, heading, text) {
  const handle = await page.waitForFunction(
    (block, heading, text) => [...document.querySelectorAll(block)].find((b) => b.querySelector(heading)?.textContent === text),
    { timeout: 5000 }, block, heading, text,
  );
  return handle.asElement();
}
