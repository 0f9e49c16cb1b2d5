// Verification-aware: semantic recovery, then a check of the server-backed summary a user can
// read. While the summary does not show the requested state it alternates a short passive wait
// (a pending commit may land) with a bounded repair (request and commit again), re-checking each time.
import type { LayersPolicy } from './policy.ts';
import { bindAndCommit } from './semantic-recovery.ts';

export const verificationLimits = { checks: 8, settleMs: 250 };

export const verificationAware: LayersPolicy = {
  name: 'verification-aware',
  async run(ctx) {
    await bindAndCommit(ctx);
    for (let check = 0; check < verificationLimits.checks; check++) {
      if (await ctx.ui.summaryHolds(ctx.page, ctx.task.target)) {
        ctx.actor.confirmed();
        return;
      }
      if (check % 2 === 0) await ctx.actor.sleep(verificationLimits.settleMs);
      else {
        ctx.actor.retries++;
        await bindAndCommit(ctx);
      }
    }
  },
};
