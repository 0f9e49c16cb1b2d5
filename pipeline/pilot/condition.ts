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
import { runLayersTrace, type LayersOutcome } from '../layers/condition.ts';
import { flagRuleInForce, MAIN_BOUNDARY_MS } from '../layers/protocol.ts';
import { planAgent, type PlanRunResult } from './interpreter.ts';
import type { Plan } from './plan.ts';

/** A layers outcome with what the interpreter adds: its claim and the executed steps (schemas/trace.schema.json). */
export type PilotOutcome = LayersOutcome & Required<Pick<LayersOutcome, 'claim' | 'steps' | 'executed'>>;

export async function runPilotTrace(options: { browser: Browser; server: FixtureServer; task: LayersTask; plan: Plan }): Promise<PilotOutcome> {
  // the interpreter is an agent of the contract: it sees the page and the instruction only, and
  // counts what it did itself
  const { result, ...outcome } = await runLayersTrace({ ...options, agent: planAgent(options.plan), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS }, flagRule: flagRuleInForce() });
  const ran = result as Partial<PlanRunResult>;
  // its claim is kept beside the seed's FC, by the page, as runLayersTrace made it (prereg/layers-pilot.md; core/verdict.ts, fcRuleOf)
  return { ...outcome, claim: result.claim, steps: ran.steps ?? 0, executed: ran.executed ?? [] };
}

