// Semantic recovery: waits for the target, binds to it by its label, and re-activates the commit
// control while the target's visible success does not appear (bounded). An activation that
// visibly changed the target's status ("Saving…") was received: it waits for that to resolve
// rather than activating again (prereg/layers-amendment-3.md). It claims done when the target's
// success showed after an activation.
import type { LayersPolicy, PolicyContext } from './policy.ts';
import type { Locator } from 'playwright-core';

export const limits = { targetWaitMs: 3000, successWaitMs: 400, pendingWaitMs: 5000, maxAttempts: 5 };

/** Binds the target, requests the value, and commits until success shows. Returns true on success. */
export async function bindAndCommit({ page, task, ui, actor }: PolicyContext, attempts = limits.maxAttempts): Promise<boolean> {
  const scope = ui.targetScope(page, task.target);
  if (!(await actor.visibleWithin(scope, limits.targetWaitMs))) return false;
  await ui.prepare(actor, scope, task.target);
  const status = ui.targetStatus(page, scope);
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) actor.retries++;
    const before = await textOf(status);
    await ui.commit(actor, scope);
    const success = ui.targetSuccess(page, scope, task.target);
    // the status moved (e.g. "Saving…"): the activation arrived; give it time instead of repeating it
    const seen = (await actor.visibleWithin(success, limits.successWaitMs)) || ((await textOf(status)) !== before && (await actor.visibleWithin(success, limits.pendingWaitMs)));
    if (seen) {
      actor.sawSuccess();
      return true;
    }
  }
  return false;
}

async function textOf(locator: Locator): Promise<string | null> {
  return (await locator.count()) ? locator.first().textContent() : null;
}

export const semanticRecovery: LayersPolicy = {
  name: 'semantic-recovery',
  async run(ctx) {
    return (await bindAndCommit(ctx))
      ? { done: true, message: 'the success showed after an activation' }
      : { done: false, message: `no success after ${limits.maxAttempts} activations at most` };
  },
};
