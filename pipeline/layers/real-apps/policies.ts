// The three reference policies, written for real applications' pages (ui.ts). The same three
// behaviours as the small apps' (pipeline/layers/policies/), with waits sized for pages that are
// rendered by PHP and reached by a navigation:
//   selector-only        one look, no wait: if the commit control is there, set the value and
//                        activate the first such control once; trusts whatever follows
//   semantic-recovery    waits for the control, sets the value, activates the controls that bear the
//                        commit control's role and name one after another until the success notice shows
//   verification-aware   semantic recovery, then reads the stored state by a second page load;
//                        while it does not hold, a short passive wait and a repair alternate (from
//                        the task's start page when the read-back's page lacks the control: version 2)
// They see the page and the family's page knowledge for the condition (ui.ts); never the
// layer, severity, fault or condition id. Each ends with a claim from what it checked (issue 47):
//   selector-only        done when it activated the control (it checks nothing after)
//   semantic-recovery    done when the success notice showed after an activation
//   verification-aware   done only when a read-back showed the stored state; not done when its
//                        read-backs ran out (its last repair is then unconfirmed, whatever it stored)
import type { Locator, Page } from 'playwright-core';
import type { Actor } from '../policies/actor.ts';
import { readBackAndRepair } from '../policies/verification-aware.ts';
import type { Claim } from '../../agents/contract.ts';
import type { FamilyUi } from './ui.ts';

export interface RealAppPolicyContext {
  page: Page; ui: FamilyUi; actor: Actor; origin: string;
  /** the arm version's limits (realAppLimitsOf): version 2 reads back after every repair its Verification can need */
  limits?: RealAppLimits;
}

export interface RealAppPolicy {
  name: string;
  run(ctx: RealAppPolicyContext): Promise<Claim>;
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
  /** verification-aware: a repair on a page without the commit control (a read-back elsewhere) first opens the task's start page again */
  repairFromStart: false,
};
export type RealAppLimits = typeof realAppLimits;

/**
 * The limits of a version of the arm. Version 1's four read-backs end on a repair that is never
 * read back (read, wait, read, repair, read, wait, read, repair); the seed's Verification needs up to
 * two repairs (three saves), so version 2 reads back six times and every repair is read back
 * before the policy claims anything, as the small apps' eight checks do for their three saves.
 */
export const realAppLimitsOf = (version: number): RealAppLimits => (version >= 2 ? { ...realAppLimits, checks: 6, repairFromStart: true } : realAppLimits);

export const selectorOnly: RealAppPolicy = {
  name: 'selector-only',
  async run({ page, ui, actor }) {
    const first = ui.commitControls(page).first();
    if (!(await actor.look(first))) return { done: false, message: 'the commit control was not there at the one look' };
    await ui.prepare(actor, page);
    await ui.commit(actor, first);
    return { done: true, message: 'activated the commit control once' };
  },
};

/** Binds the commit control by role and name, sets the value, and activates until success shows. True on success. */
export async function bindAndCommit({ page, ui, actor, limits = realAppLimits }: RealAppPolicyContext): Promise<boolean> {
  const controls = ui.commitControls(page);
  if (!(await actor.visibleWithin(controls, limits.targetWaitMs))) return false;
  for (let attempt = 0; attempt < limits.maxAttempts; attempt++) {
    if (attempt > 0) actor.retries++;
    // the controls that bear the name, in page order: a retry tries the next one
    const count = await controls.count();
    if (count === 0) return false;
    // the value again on every attempt: an activation that navigated lands on a fresh form, and
    // setting a field to the value it holds changes nothing
    await ui.prepare(actor, page);
    const control: Locator = controls.nth(attempt % count);
    await ui.commit(actor, control);
    if (await actor.visibleWithin(ui.success(page), limits.successWaitMs)) {
      actor.sawSuccess();
      return true;
    }
  }
  return false;
}

export const semanticRecovery: RealAppPolicy = {
  name: 'semantic-recovery',
  async run(ctx) {
    return (await bindAndCommit(ctx))
      ? { done: true, message: 'the success notice showed after an activation' }
      : { done: false, message: `no success notice after ${(ctx.limits ?? realAppLimits).maxAttempts} activations at most` };
  },
};

export const verificationAware: RealAppPolicy = {
  name: 'verification-aware',
  async run(ctx) {
    const limits = ctx.limits ?? realAppLimits;
    await bindAndCommit(ctx);
    const read = await readBackAndRepair(ctx.actor, limits, () => ctx.ui.readBack(ctx.page, ctx.origin), async () => {
      // version 1 repaired on the page its read-back left (a trashed post's read-back leaves the
      // Trash view, where the row's Trash link is not): no repair was made there
      if (limits.repairFromStart && (await ctx.ui.commitControls(ctx.page).count()) === 0) await ctx.ui.openStart(ctx.page, ctx.origin);
      await bindAndCommit(ctx);
    });
    return read !== null
      ? { done: true, message: `the stored state read back after ${read} read-back${read > 1 ? 's' : ''}` }
      : { done: false, message: `the stored state did not read back in ${limits.checks} read-backs` };
  },
};

export const realAppPolicies: readonly RealAppPolicy[] = [selectorOnly, semanticRecovery, verificationAware];
