// The policies act through an Actor, which counts what they do: each select, fill and click is an
// action; each repeated activation of the commit control, or repair after a failed check, a retry.
import type { Locator, Page } from 'playwright-core';

export class Actor {
  actions = 0;
  retries = 0;
  constructor(readonly page: Page) {}

  async click(target: Locator): Promise<void> {
    this.actions++;
    await target.click({ timeout: 2000 });
  }

  async select(target: Locator, value: string): Promise<void> {
    this.actions++;
    await target.selectOption(value, { timeout: 2000 });
  }

  async fill(target: Locator, value: string): Promise<void> {
    this.actions++;
    await target.fill(value, { timeout: 2000 });
  }
}
