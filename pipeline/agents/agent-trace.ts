// One `layers` condition run by any agent of the contract (pipeline/agents/contract.ts), in a
// fresh browser of its own, scored like every `layers` trace (pipeline/layers/condition.ts):
//
//   launchAgentBrowser ─▶ the condition's app on the fixture server ─▶ the start page open and
//   watched, in the browser's first tab (its stage) ─▶ the server is told the agent begins ─▶ agent.run()
//   ─▶ its claim ─▶ scored at the boundary: VTS from the server's persisted state, AS from the page
//   ─▶ false completion = claimed done and not VTS ─▶ the browser and its profile are removed
//
// The agent gets the instruction and the start URL, the page (in-process agents) and the browser's
// endpoints (outside agents); never the layer, severity, faults or condition id.
import type { FixtureServer } from '../../fixtures/server.ts';
import type { LayersTask } from '../../core/layers.ts';
import { runLayersTrace, type LayersOutcome, type Scoring } from '../layers/condition.ts';
import { flagRuleInForce } from '../layers/protocol.ts';
import { verdictOf } from '../../core/verdict.ts';
import type { BrowserName } from '../browser/launch.ts';
import { launchAgentBrowser } from './agent-browser.ts';
import type { Agent, AgentResult, Claim } from './contract.ts';

export interface AgentOutcome extends Omit<LayersOutcome, 'actions' | 'retries'> {
  /** what the agent said; null when it gave no claim (see error) */
  claim: Claim | null;
  /** as the agent reports them; null when it does not */
  actions: number | null;
  retries: number | null;
  browser: { name: BrowserName; version: string };
}

export async function runAgentTrace(options: {
  browserName: BrowserName;
  server: FixtureServer;
  task: LayersTask;
  agent: Agent;
  scoring: Scoring;
}): Promise<AgentOutcome> {
  const { server, task, agent, scoring } = options;
  const launched = await launchAgentBrowser(options.browserName);
  try {
    const { result, ...outcome } = await runLayersTrace({ server, task, agent, scoring, stage: launched.stage, endpoints: launched.endpoints, flagRule: flagRuleInForce() });
    return { ...claimedOutcome(outcome, result), browser: { name: launched.name, version: launched.version } };
  } finally {
    await launched.close();
  }
}

/** A trace's outcome scored by the agent's claim: false completion is claimed done and not VTS (every outside agent's rule). */
export function claimedOutcome(outcome: LayersOutcome, result: AgentResult): Omit<AgentOutcome, 'browser'> {
  return {
    ...outcome,
    claim: result.claim,
    ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'claim-if-kept' }),
    actions: result.actions ?? null,
    retries: result.retries ?? null,
    error: result.error ?? outcome.error,
  };
}
