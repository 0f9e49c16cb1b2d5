// Semantic recovery: waits for the target, binds to it by its label, and re-activates the commit
// control while the target's visible success does not appear (bounded).
import type { LayersPolicy, PolicyContext } from './policy.ts';
import { visibleWithin } from './policy.ts';

export const limits = { targetWaitMs: 3000, successWaitMs: 400, maxAttempts: 5 };

/** Binds the target, requests the value, and commits until success shows. Returns true on success. */
export async function bindAndCommit({ page, task, ui, actor }: PolicyContext, attempts = limits.maxAttempts): Promise<boolean> {
  const scope = ui.targetScope(page, task.target);
  if (!(await visibleWithin(scope, limits.targetWaitMs))) return false;
  await ui.prepare(actor, scope, task.target);
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) actor.retries++;
    await ui.commit(actor, scope);
    if (await visibleWithin(ui.targetSuccess(page, scope, task.target), limits.successWaitMs)) return true;
  }
  return false;
}

export const semanticRecovery: LayersPolicy = {
  name: 'semantic-recovery',
  async run(ctx) {
    await bindAndCommit(ctx);
  },
};
