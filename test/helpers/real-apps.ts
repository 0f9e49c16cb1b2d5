// What the real apps' tests do in a page, from a family's data alone (fixtures/<app>/families/):
// open the start page, change the input, activate the commit control by its role and name, and
// wait for the success notice; and the requests a page sends off its origin.
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { codeRoot } from '../../core/paths.ts';
import type { FamilyCondition } from '../../fixtures/real-app.ts';

/** Every request the page sends to another origin than `origin` (data: and blob: URLs aside). */
export function offOriginRequests(page: Page, origin: string): string[] {
  const off: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith(`${origin}/`) && !/^(data|blob|about):/.test(r.url())) off.push(r.url()); });
  return off;
}

/** Performs the condition's task as a careful user would, and waits for its notice; returns the notice's text. */
export async function performFamily(page: Page, origin: string, condition: FamilyCondition): Promise<string> {
  await page.goto(`${origin}${condition.start}`);
  const input = condition.input;
  if (input) {
    const control = page.locator(input.selector);
    if (input.action === 'fill') await control.fill(input.value ?? '');
    else if (input.action === 'check') await control.check();
    else await control.uncheck();
  }
  const spec = condition.spec as { target: { selector: string; role: string; name: string } };
  const target = page.getByRole(spec.target.role as Parameters<Page['getByRole']>[0], { name: spec.target.name, exact: true });
  // the one control of that role and name is the spec's selector (what a decoy would copy)
  if ((await target.count()) !== 1 || !(await target.evaluate((e, selector) => e.matches(selector), spec.target.selector))) {
    throw new Error(`${condition.family}: the ${spec.target.role} named ${JSON.stringify(spec.target.name)} is not the one element of ${spec.target.selector}`);
  }
  // a row action shows on its row's hover (WordPress's list tables)
  const row = page.locator('tr', { has: target });
  if (await row.count()) await row.first().hover();
  await target.click();
  const notice = page.locator(condition.notice.selector).filter({ hasText: condition.notice.text });
  await notice.first().waitFor({ state: 'visible', timeout: 20_000 });
  return (await notice.first().innerText()).trim();
}

/**
 * Runs a real app's fixture script as a user does (`node --import tsx <script> <verb>`), with the port and
 * state folder of the test's own site in the variables the script reads.
 */
export function runSiteCommand(script: string, verb: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', script, verb], { cwd: codeRoot, encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}
