// The policies act through an Actor, which counts what they do: each select, fill and click is an
// action; each repeated activation of the commit control, or repair after a failed check, a retry.
// It also records the moments amendment 7's speed rule reads (pipeline/layers/scoring.ts): the
// first look, the policy's own timed waits that ran out, when it saw the target's success and when
// it read the requested state back from the server; and an action of its own that timed out.
import type { Locator, Page } from 'playwright-core';
import { performance } from 'node:perf_hooks';
import type { ActorAction, PolicyMoments } from '../../agents/contract.ts';

/** The harness's own bound on one action (a click, select or fill). */
export const ACTION_TIMEOUT_MS = 2000;

export class Actor {
  actions = 0;
  retries = 0;
  /** when (process clock) the policy's first look at whether a control was there returned, if it looked */
  firstLookDone: number | null = null;
  readonly moments: PolicyMoments = { firstLookStartedAt: null, firstLookSaw: null, timedWaits: [], successSeenAt: null, confirmedAt: null, actionTimeout: null };
  /** timeoutMs: the bound on each action, the harness's own unless a caller that measures nothing
   *  of timing (the fixtures' leak test) asks for a looser one */
  constructor(readonly page: Page, readonly timeoutMs: number = ACTION_TIMEOUT_MS) {}

  /** Looks, without waiting, whether a control is visible now (not an action). */
  async look(target: Locator): Promise<boolean> {
    const started = performance.now();
    const visible = await target.isVisible();
    if (this.firstLookDone === null) {
      this.firstLookDone = performance.now();
      this.moments.firstLookStartedAt = started;
      this.moments.firstLookSaw = visible;
    }
    return visible;
  }

  /** Waits up to ms for a locator to be visible; false on timeout (the wait then counts as the policy's own timer). */
  async visibleWithin(target: Locator, ms: number): Promise<boolean> {
    const started = performance.now();
    try {
      await target.first().waitFor({ state: 'visible', timeout: ms });
      return true;
    } catch {
      this.moments.timedWaits.push([started, started + ms]);
      return false;
    }
  }

  /** A passive wait of the policy's own. */
  async sleep(ms: number): Promise<void> {
    const started = performance.now();
    await this.page.waitForTimeout(ms);
    this.moments.timedWaits.push([started, started + ms]);
  }

  /** The policy saw the target's success indication. */
  sawSuccess(): void {
    this.moments.successSeenAt = performance.now();
  }

  /** The policy read the requested state back from the server. */
  confirmed(): void {
    this.moments.confirmedAt = performance.now();
  }

  private async act(action: ActorAction, run: () => Promise<unknown>): Promise<void> {
    this.actions++;
    const started = performance.now();
    try {
      await run();
    } catch (e) {
      if ((e as Error).name === 'TimeoutError') this.moments.actionTimeout = { action, startedAt: started, timeoutMs: this.timeoutMs, message: (e as Error).message.split('\n')[0] ?? '' };
      throw e;
    }
  }

  click(target: Locator): Promise<void> {
    return this.act('click', () => target.click({ timeout: this.timeoutMs }));
  }

  select(target: Locator, value: string): Promise<void> {
    return this.act('select', () => target.selectOption(value, { timeout: this.timeoutMs }));
  }

  fill(target: Locator, value: string): Promise<void> {
    return this.act('fill', () => target.fill(value, { timeout: this.timeoutMs }));
  }

  /** Sets a checkbox to the given state (the real applications' settings pages). */
  check(target: Locator, checked: boolean): Promise<void> {
    return this.act('check', () => target.setChecked(checked, { timeout: this.timeoutMs }));
  }

  /** Moves the pointer over a control, as a user does to reveal a list row's actions. */
  hover(target: Locator): Promise<void> {
    return this.act('hover', () => target.hover({ timeout: this.timeoutMs }));
  }
}
