// Selector-only: open loop. If the first control of its kind is there at once (any entity's, on a
// small app; the commit control's role and name, on a real application), it sets the requested
// value, activates that control, and never recovers. It claims done when it activated the control
// (it checks nothing after).
import type { LayersPolicy } from './policy.ts';

export const selectorOnly: LayersPolicy = {
  name: 'selector-only',
  async run({ page, app, actor }) {
    const first = app.firstLook(page).first();
    if (!(await actor.look(first))) return { done: false, message: 'the commit control was not there at the one look' }; // nothing to click
    await app.prepare(actor, page, first);
    await app.commit(actor, first);
    return { done: true, message: 'activated the commit control once' };
  },
};
