// Verification-aware: semantic recovery, then a check of the server-backed summary a user can
// read. While the summary does not show the requested state it alternates a short passive wait
// (a pending commit may land) with a bounded repair (request and commit again), re-checking each time.
// The loop (readBackAndRepair) is the one every arm's verification-aware policy runs: the real
// applications' (../real-apps/policies.ts) reads back by a second page load and repairs from there.
// It claims done only when a read-back showed the requested state; not done when they ran out.
import type { LayersPolicy } from './policy.ts';
import type { Actor } from './actor.ts';
import { bindAndCommit } from './semantic-recovery.ts';

export const verificationLimits = { checks: 8, settleMs: 250 };

/**
 * Reads the stored state back up to `checks` times; between two read-backs, in turn, a passive wait
 * of settleMs and a repair (a retry). Returns how many read-backs it took to see the state, or null
 * when none did (its last repair, if the count ends on one, is then not read back).
 */
export async function readBackAndRepair(actor: Actor, limits: { checks: number; settleMs: number }, readBack: () => Promise<boolean>, repair: () => Promise<unknown>): Promise<number | null> {
  for (let check = 0; check < limits.checks; check++) {
    if (await readBack()) {
      actor.confirmed();
      return check + 1;
    }
    if (check % 2 === 0) await actor.sleep(limits.settleMs);
    else {
      actor.retries++;
      await repair();
    }
  }
  return null;
}

export const verificationAware: LayersPolicy = {
  name: 'verification-aware',
  async run(ctx) {
    await bindAndCommit(ctx);
    const read = await readBackAndRepair(ctx.actor, verificationLimits, () => ctx.ui.summaryHolds(ctx.page, ctx.task.target), () => bindAndCommit(ctx));
    return read !== null
      ? { done: true, message: `the summary showed the requested state after ${read} read-back${read > 1 ? 's' : ''}` }
      : { done: false, message: `the summary did not show the requested state in ${verificationLimits.checks} read-backs` };
  },
};
