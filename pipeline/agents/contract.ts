// The agent contract: what every agent of the `layers` study satisfies — the three reference
// policies, the planning pilot's plan interpreter, and outside agents run as processes.
//
//   harness: condition ─▶ app on the fixture server ─▶ fresh browser context, start page open
//            ─▶ agent.run({ task, page, endpoints }) ─▶ AgentResult (its claim)
//            ─▶ scoring by the server's persisted state (never by the claim)
//
// An agent gets the task as a user would give it (`instruction`, `start_url`) and a browser.
// It never receives the layer, severity, fault parameters or condition id.
import type { Page } from 'playwright-core';
import type { ClaimLine } from '../../core/contracts.ts';
import { RStackError } from '../../core/errors.ts';

/** The task as a user gives it. Outside agents receive exactly this, as RSTACKBENCH_TASK. */
export interface AgentTask {
  instruction: string;
  start_url: string;
}

/** What the agent says when it returns: done or not, with an optional message (schemas/claim.schema.json);
 *  an outside agent's row also keeps the WebArena-Verified status it gave and the usage it reported. */
export type Claim = { done: boolean } & Pick<ClaimLine, 'message' | 'status' | 'usage'>;

/** How an agent reaches the browser: in-process agents use `page`; outside processes the endpoints. */
export interface AgentSession {
  task: AgentTask;
  /** the start page, already open in a fresh context, where the harness holds it through Playwright;
   *  absent in a Firefox left to an outside agent (agent-browser.ts), which reaches it by the endpoints */
  page?: Page;
  endpoints?: {
    /** Chromium: the DevTools HTTP endpoint, http://127.0.0.1:PORT (connectOverCDP) */
    cdp_url?: string;
    /** the browser's WebSocket endpoint: CDP (Chromium) or WebDriver BiDi (Firefox) */
    ws_endpoint?: string;
  };
}

/** What a run of an agent returns: its claim (null when it failed to give one) and what it did. */
export interface AgentResult {
  claim: Claim | null;
  /** why there is no claim: a timeout, a crash, a last line that is not a claim */
  error: string | null;
  /** counted where the harness sees them (in-process agents); outside agents may report them */
  actions?: number;
  retries?: number;
  /** an in-process agent that looks once without waiting: when (process clock) its first look returned (amendment 4's rule) */
  firstLookDone?: number | null;
  /** an in-process agent: the moments amendment 7's speed rule reads (process clock) */
  moments?: PolicyMoments;
}

/** The actions an in-process agent's actor counts (pipeline/layers/policies/actor.ts). */
export type ActorAction = 'click' | 'select' | 'fill' | 'check' | 'hover';

/** What an in-process agent records of its own timeline (pipeline/layers/policies/actor.ts). */
export interface PolicyMoments {
  firstLookStartedAt: number | null;
  firstLookSaw: boolean | null;
  /** its own timed waits that ran out, [start, start + timeout] */
  timedWaits: [number, number][];
  /** the last time it saw the target's success indication */
  successSeenAt: number | null;
  /** the last time it read the requested state back from the server */
  confirmedAt: number | null;
  /** one of its own actions that ran out of the harness's action timeout */
  actionTimeout: { action: ActorAction; startedAt: number; timeoutMs: number; message: string } | null;
}

export interface Agent {
  name: string;
  run(session: AgentSession): Promise<AgentResult>;
}

/** The page an in-process agent drives; it has none in a browser left to an outside agent. */
export function requirePage(session: AgentSession, agent: string): Page {
  if (!session.page) throw new RStackError(`${agent} drives the page in-process, and this browser was opened for an outside agent (no page to hand over)`);
  return session.page;
}

