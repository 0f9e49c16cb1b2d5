// Selector-only: open loop. It sets the requested value in the first matching control if the
// control is there at once, activates the first visible commit control, and never recovers. It
// claims done when it activated the control (it checks nothing after).
import type { LayersPolicy } from './policy.ts';

export const selectorOnly: LayersPolicy = {
  name: 'selector-only',
  async run({ page, task, ui, actor }) {
    const first = ui.scopes(page).first();
    if (!(await actor.look(first))) return { done: false, message: 'the commit control was not there at the one look' }; // nothing to click
    await ui.prepare(actor, first, task.target);
    await ui.commit(actor, first);
    return { done: true, message: 'activated the commit control once' };
  },
};
