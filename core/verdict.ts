// The verdict of a `layers` trace, for every arm: from AS, VTS (each arm's boundary and store,
// pipeline/layers/scoring.ts) and the agent's claim.
//
// AS and VTS are each arm's (its boundary, its store); from them and the agent's claim:
//
//   false completion    by the page (the seed's definition): AS and not VTS; by the claim (as an
//                       outside agent is scored): claimed done and not VTS
//   ended done          the claim's done when there is a claim; without one, what a reference
//                       policy had seen: the success indication (AS) or its own read-back
//   false abandonment   not ended done while VTS: the work was done and taken as not done
//
// Which false completion a row's `false_completion` holds is the arm's, as registered (`FcRule`):
// each arm's rows keep theirs, and a reader finds the other beside it where the arm keeps both.
//
// Here in core/ because both ends read it: every row builder of the runs (pipeline/) writes its
// verdict with it, and the recount (analysis/recount.ts) checks every registered row against it.

export interface ClaimLike { done: boolean }

/**
 * How an arm's rows name false completion:
 *   'claim-if-kept'  a row that keeps the agent's claim (outside agents, the verified and transport
 *                    arms' claiming policies) has it by the claim, one without a claim by the page
 *                    (arms main and horizon, real-apps version 1, reference policies on transport)
 *   'page'           by the page whatever the row keeps: the pilot, whose prereg keeps the seed's
 *                    FC for its plans beside their claim (prereg/layers-pilot.md)
 *   'both'           false_completion by the page and claim_false_completion by the claim, named
 *                    apart (real-apps and transport from version 2, and arm claims: the main arm's
 *                    conditions with every reference policy's claim kept, issue 47)
 */
export type FcRule = 'claim-if-kept' | 'page' | 'both';

export interface Verdict {
  apparent_success: boolean;
  vts: boolean;
  false_completion: boolean;
  claim_false_completion?: boolean;
}

/** The verdict of a row: `claim` undefined when the row keeps no claim, null when the agent gave none. */
export function verdictOf(v: { apparentSuccess: boolean; vts: boolean; claim?: ClaimLike | null; rule: FcRule }): Verdict {
  const byClaim = v.claim?.done === true && !v.vts;
  const byPage = v.apparentSuccess && !v.vts;
  if (v.rule === 'both') return { apparent_success: v.apparentSuccess, vts: v.vts, false_completion: byPage, claim_false_completion: byClaim };
  return { apparent_success: v.apparentSuccess, vts: v.vts, false_completion: v.rule === 'page' || v.claim === undefined ? byPage : byClaim };
}

/** Ended done: the claim's done; without a claim, the success indication or the policy's own read-back. */
export function endedDone(claim: ClaimLike | null | undefined, apparentSuccess: boolean, confirmedAt: number | null | undefined): boolean {
  return claim ? claim.done === true : apparentSuccess || confirmedAt != null;
}

/** The work was done (VTS) and the agent ended taking it as not done. */
export const falseAbandonment = (ended: boolean, vts: boolean): boolean => !ended && vts;

/**
 * Each row's FC rule, as its arm registered it: the pilot's by the page; a reference policy's row
 * of the claims arm, or from version 2 of the proxy's arms, keeps both; an outside agent's row is
 * scored by its claim, on any app; every other row by its claim when it keeps one.
 */
export function fcRuleOf(row: { arm: string; arm_version?: number }): FcRule {
  if (row.arm === 'pilot') return 'page';
  if (row.arm === 'claims') return 'both';
  return row.arm !== 'agent' && (row.arm_version ?? 1) >= 2 ? 'both' : 'claim-if-kept';
}
