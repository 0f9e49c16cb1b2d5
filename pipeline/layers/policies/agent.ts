// The reference policies as agents of the one contract (pipeline/agents/contract.ts). A scripted
// policy has no language understanding, so it is handed the user's request in structured form —
// the app's template and the requested key and value, which is what the instruction says — beside
// the instruction and the page; never the layer, severity, faults or condition id. It returns
// when it considers the task done; it says nothing more (no claim: the study scores what the page
// shows and what the server holds). Its actions, retries and first look are counted by its actor.
import { requirePage, type Agent } from '../../agents/contract.ts';
import type { LayersTask } from '../../../core/layers.ts';
import { Actor } from './actor.ts';
import { uis } from './ui.ts';
import { policyView, type LayersPolicy } from './policy.ts';
import { firstLine } from '../../../core/errors.ts';

export function policyAgent(policy: LayersPolicy, task: LayersTask): Agent {
  const view = policyView(task);
  return {
    name: policy.name,
    async run(session) {
      const page = requirePage(session, policy.name);
      const actor = new Actor(page);
      const counted = () => ({ actions: actor.actions, retries: actor.retries, firstLookDone: actor.firstLookDone, moments: actor.moments });
      try {
        await policy.run({ page, task: view, ui: uis[view.template], actor });
        return { claim: null, error: null, ...counted() };
      } catch (e) {
        return { claim: null, error: firstLine(e), ...counted() };
      }
    },
  };
}
