// The three reference policies, written for real applications' pages (ui.ts). The same three
// behaviours as the small apps' (pipeline/layers/policies/), with waits sized for pages that are
// rendered by PHP and reached by a navigation:
//   selector-only        one look, no wait: if the commit control is there, set the value and
//                        activate the first such control once; trusts whatever follows
//   semantic-recovery    waits for the control, sets the value, activates the controls that bear the
//                        commit control's role and name one after another until the success notice shows
//   verification-aware   semantic recovery, then reads the stored state by a second page load;
//                        while it does not hold, a short passive wait and a repair alternate
// They see the page and the family's page knowledge for the condition (ui.ts); never the
// layer, severity, fault or condition id.
import type { Locator, Page } from 'playwright-core';
import type { Actor } from '../policies/actor.ts';
import type { FamilyUi } from './ui.ts';

export interface RealAppPolicyContext { page: Page; ui: FamilyUi; actor: Actor; origin: string }

export interface RealAppPolicy {
  name: string;
  run(ctx: RealAppPolicyContext): Promise<void>;
}

export const realAppLimits = {
  /** how long semantic recovery waits for the commit control to appear */
  targetWaitMs: 5000,
  /** how long it waits for the success notice after an activation (a navigation and a PHP page) */
  successWaitMs: 2500,
  maxAttempts: 5,
  /** verification-aware: read-backs, and the passive wait between them */
  checks: 4,
  settleMs: 1000,
};

export const selectorOnly: RealAppPolicy = {
  name: 'selector-only',
  async run({ page, ui, actor }) {
    const first = ui.commitControls(page).first();
    if (!(await actor.look(first))) return;
    await ui.prepare(actor, page);
    await ui.commit(actor, first);
  },
};

/** Binds the commit control by role and name, sets the value, and activates until success shows. True on success. */
export async function bindAndCommit({ page, ui, actor }: RealAppPolicyContext): Promise<boolean> {
  const controls = ui.commitControls(page);
  if (!(await actor.visibleWithin(controls, realAppLimits.targetWaitMs))) return false;
  for (let attempt = 0; attempt < realAppLimits.maxAttempts; attempt++) {
    if (attempt > 0) actor.retries++;
    // the controls that bear the name, in page order: a retry tries the next one
    const count = await controls.count();
    if (count === 0) return false;
    // the value again on every attempt: an activation that navigated lands on a fresh form, and
    // setting a field to the value it holds changes nothing
    await ui.prepare(actor, page);
    const control: Locator = controls.nth(attempt % count);
    await ui.commit(actor, control);
    if (await actor.visibleWithin(ui.success(page), realAppLimits.successWaitMs)) {
      actor.sawSuccess();
      return true;
    }
  }
  return false;
}

export const semanticRecovery: RealAppPolicy = {
  name: 'semantic-recovery',
  async run(ctx) {
    await bindAndCommit(ctx);
  },
};

export const verificationAware: RealAppPolicy = {
  name: 'verification-aware',
  async run(ctx) {
    await bindAndCommit(ctx);
    for (let check = 0; check < realAppLimits.checks; check++) {
      if (await ctx.ui.readBack(ctx.page, ctx.origin)) {
        ctx.actor.confirmed();
        return;
      }
      if (check % 2 === 0) await ctx.actor.sleep(realAppLimits.settleMs);
      else {
        ctx.actor.retries++;
        await bindAndCommit(ctx);
      }
    }
  },
};

export const realAppPolicies: readonly RealAppPolicy[] = [selectorOnly, semanticRecovery, verificationAware];
