// Verification-aware: semantic recovery, then a read-back of the stored state the way a user can
// (a small app's server-backed summary after a reload; a real application's page loaded again).
// While it does not show the requested state it alternates a short passive wait (a pending commit
// may land) with a bounded repair (request and commit again, from where the commit control is),
// re-checking each time. It claims done only when a read-back showed the requested state; not done
// when they ran out.
import type { LayersPolicy } from './policy.ts';
import type { Actor } from './actor.ts';
import { bindAndCommit } from './semantic-recovery.ts';

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
    const { page, app } = ctx;
    await bindAndCommit(ctx);
    const read = await readBackAndRepair(ctx.actor, app.limits, () => app.readBack(page), async () => {
      await app.beforeRepair(page);
      await bindAndCommit(ctx);
    });
    return read !== null
      ? { done: true, message: `${app.words.readBack} after ${read} read-back${read > 1 ? 's' : ''}` }
      : { done: false, message: `${app.words.noReadBack} in ${app.limits.checks} read-backs` };
  },
};
