// One pilot trace: a frozen plan, executed by the interpreter on one `layers` condition, scored
// exactly as the reference policies are (pipeline/layers/condition.ts: a fresh context, the page
// watch for AS, the server's persisted state at the registered boundary for VTS).
//
//   task + plan ─▶ runLayersTrace(policy = the interpreter, seen through the agent contract)
//               ─▶ LayersOutcome + the claim, the executed steps and their time
//
// The interpreter gets the task as a user gives it (instruction, start URL): never the condition.
import type { Browser } from 'playwright-core';
import type { FixtureServer } from '../../fixtures/server.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { LayersPolicy } from '../layers/policies/policy.ts';
import { runLayersTrace, type LayersOutcome } from '../layers/condition.ts';
import { MAIN_BOUNDARY_MS } from '../layers/protocol.ts';
import { planAgent, type PlanRunResult } from './interpreter.ts';
import type { Plan } from './plan.ts';

/** A layers outcome with what the interpreter adds: its claim and the executed steps (schemas/trace.schema.json). */
export type PilotOutcome = LayersOutcome & Required<Pick<LayersOutcome, 'claim' | 'steps' | 'executed'>>;

export async function runPilotTrace(options: { browser: Browser; server: FixtureServer; task: LayersTask; plan: Plan }): Promise<PilotOutcome> {
  const agent = planAgent(options.plan);
  let result: PlanRunResult | undefined;
  // the interpreter as a policy of the current harness: it sees the page and the instruction only;
  // what it did is counted by its own actor and handed to the harness's
  const policy: LayersPolicy = {
    name: agent.name,
    async run({ page, task, actor }) {
      result = await agent.run({ task: { instruction: task.instruction, start_url: page.url() }, page });
      actor.actions += result.actions;
      actor.retries += result.retries;
      if (result.error) throw new Error(result.error);
    },
  };
  const outcome = await runLayersTrace({ ...options, policy, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } });
  return { ...outcome, claim: result?.claim ?? null, steps: result?.steps ?? 0, executed: result?.executed ?? [] };
}

