// Semantic recovery: waits for the commit control, bound by its role and name, sets the requested
// value and activates while the app's success does not show (bounded). An activation that visibly
// changed the target's status ("Saving…") was received: it waits for that to resolve rather than
// activating again (prereg/layers-amendment-3.md). Where the app's form is reached again by a
// navigation, it sets the value before every activation and a retry takes the next control of
// the same name (the app's description says which, app.ts). It claims done when the success showed
// after an activation.
import type { Locator } from 'playwright-core';
import type { LayersPolicy } from './policy.ts';
import type { AppContext } from './app.ts';

/** Binds the commit control, requests the value, and commits until success shows. Returns true on success. */
export async function bindAndCommit({ page, app, actor }: AppContext, attempts = app.limits.maxAttempts): Promise<boolean> {
  const controls = app.commitControls(page);
  if (!(await actor.visibleWithin(controls, app.limits.targetWaitMs))) return false;
  if (!app.prepareEveryAttempt) await app.prepare(actor, page, controls);
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) actor.retries++;
    const control = await app.controlFor(controls, attempt);
    if (!control) return false;
    // a form reached again by a navigation is fresh: the value again (setting a field to the value it holds changes nothing)
    if (app.prepareEveryAttempt) await app.prepare(actor, page, control);
    const status = app.status(page, control);
    const before = status ? await textOf(status) : null;
    await app.commit(actor, control);
    const success = app.success(page, control);
    // the status moved (e.g. "Saving…"): the activation arrived; give it time instead of repeating it
    const seen = (await actor.visibleWithin(success, app.limits.successWaitMs)) || (status !== null && (await textOf(status)) !== before && (await actor.visibleWithin(success, app.limits.pendingWaitMs)));
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
      ? { done: true, message: `the ${ctx.app.words.success} showed after an activation` }
      : { done: false, message: `no ${ctx.app.words.success} after ${ctx.app.limits.maxAttempts} activations at most` };
  },
};
