// The reference policies as agents of the one contract (pipeline/agents/contract.ts). A scripted
// policy has no language understanding, so it is handed the user's request in structured form —
// the app's template and the requested key and value, which is what the instruction says — beside
// the instruction and the page; never the layer, severity, faults or condition id. It returns
// when it considers the task done, with a claim from what it checked. The registered arms made
// before policies claimed keep no claim (policyAgent: the study scores what the page shows and what
// the server holds); an arm version that keeps it says so (claimingAgent). Its actions, retries and
// first look are counted by its actor either way.
import { requirePage, type Agent, type Claim } from '../../agents/contract.ts';
import type { LayersTask } from '../../../core/layers.ts';
import { Actor } from './actor.ts';
import { smallApp, uis } from './ui.ts';
import { policyView, type LayersPolicy, type PolicyContext } from './policy.ts';
import { firstLine } from '../../../core/errors.ts';

/**
 * A scripted policy as an agent: its page, a fresh actor and the request in structured form go to
 * `act`, which runs the policy and returns its claim (null: it claims nothing). What the actor counted
 * goes into the result either way; a throw is the row's error, with no claim.
 */
export function scriptedAgent(name: string, task: LayersTask, act: (ctx: PolicyContext) => Promise<Claim | null>): Agent {
  const view = policyView(task);
  return {
    name,
    async run(session) {
      const page = requirePage(session, name);
      const actor = new Actor(page);
      const counted = () => ({ actions: actor.actions, retries: actor.retries, firstLookDone: actor.firstLookDone, moments: actor.moments });
      try {
        const ui = uis[view.template];
        const claim = await act({ page, task: view, ui, actor, app: smallApp(ui, view.target) });
        return { claim, error: null, ...counted() };
      } catch (e) {
        return { claim: null, error: firstLine(e), ...counted() };
      }
    },
  };
}

/** A reference policy as an agent of the registered arms that keep no claim: it acts as it always did, and its claim is not passed on. */
export function policyAgent(policy: LayersPolicy, task: LayersTask): Agent {
  return scriptedAgent(policy.name, task, async (ctx) => { await policy.run(ctx); return null; });
}

/** A reference policy as an agent whose claim the row keeps (an arm version that says so in its amendment). */
export function claimingAgent(policy: LayersPolicy, task: LayersTask): Agent {
  return scriptedAgent(policy.name, task, (ctx) => policy.run(ctx));
}
