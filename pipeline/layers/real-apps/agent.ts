// The real-applications policies as agents of the one contract (pipeline/agents/contract.ts), as
// pipeline/layers/policies/agent.ts makes the small apps' policies agents: handed the instruction's
// structured request (the family and its target) beside the page, never the layer, severity or
// fault. It returns the policy's claim; the row keeps it where the arm's protocol says so
// (condition.ts: version 2 on), beside what the page showed and what the database holds.
import { requirePage, type Agent } from '../../agents/contract.ts';
import { firstLine } from '../../../core/errors.ts';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { Actor } from '../policies/actor.ts';
import { familyApp } from './ui.ts';
import { realAppLimitsOf, type RealAppPolicy } from './policies.ts';

/** The bound on one action on a real application's page: a PHP page under load answers in hundreds of ms, the small apps' 2 s bound is theirs. */
export const REAL_APP_ACTION_TIMEOUT_MS = 5000;

export function realAppPolicyAgent(policy: RealAppPolicy, task: LayersRealAppsTask, origin: string): Agent {
  const app = familyApp(task, origin, realAppLimitsOf(task.version ?? 1));
  return {
    name: policy.name,
    async run(session) {
      const page = requirePage(session, policy.name);
      const actor = new Actor(page, REAL_APP_ACTION_TIMEOUT_MS);
      const counted = () => ({ actions: actor.actions, retries: actor.retries, firstLookDone: actor.firstLookDone, moments: actor.moments });
      try {
        const claim = await policy.run({ page, actor, app });
        return { claim, error: null, ...counted() };
      } catch (e) {
        return { claim: null, error: firstLine(e), ...counted() };
      }
    },
  };
}
