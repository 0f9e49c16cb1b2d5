// The policies act through an Actor, which counts what they do: each select, fill and click is an
// action; each repeated activation of the commit control, or repair after a failed check, a retry.
import type { Locator, Page } from 'playwright-core';
import { performance } from 'node:perf_hooks';

export class Actor {
  actions = 0;
  retries = 0;
  /** when (process clock) the policy's first look at whether a control was there returned, if it looked */
  firstLookDone: number | null = null;
  constructor(readonly page: Page) {}

  /** Looks, without waiting, whether a control is visible now (not an action). */
  async look(target: Locator): Promise<boolean> {
    const visible = await target.isVisible();
    this.firstLookDone ??= performance.now();
    return visible;
  }

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
