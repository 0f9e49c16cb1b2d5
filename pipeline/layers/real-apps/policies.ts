// The three reference policies on real applications' pages. Since issue 47 they are the small
// apps' own (pipeline/layers/policies/: selector-only.ts, semantic-recovery.ts,
// verification-aware.ts), written against an app's description (../policies/app.ts); this arm
// supplies only its app (ui.ts, familyApp) and the waits below, sized for pages that are rendered by
// PHP and reached by a navigation. On these pages they behave as they did when they were written
// here (the prereg and its amendments name this file):
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
import { referencePolicies, type LayersPolicy } from '../policies/index.ts';

export { selectorOnly } from '../policies/selector-only.ts';
export { semanticRecovery } from '../policies/semantic-recovery.ts';
export { verificationAware } from '../policies/verification-aware.ts';
export type RealAppPolicy = LayersPolicy;

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

/** The reference policies of the arm: the same three as the small apps', in the paper's order. */
export const realAppPolicies: readonly RealAppPolicy[] = referencePolicies;
