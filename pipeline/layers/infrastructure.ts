// Amendment 7, rule 2 (prereg/layers-amendment-7.md): an action that timed out because the machine
// stalled is an infrastructure error, not the agent's failure. A pure decision on what a trace
// recorded; the condition runner (condition.ts) then throws, and the run skeleton
// (pipeline/kernel/run.ts) keeps the failed attempt in data/excluded/ and runs the unit again.
//
// A trace failed of a stall iff all of:
//   1. it ended in an error, and that error is the timeout of one of the harness's own actions
//      (the Actor's click, select or fill, bounded by ACTION_TIMEOUT_MS) — not an agent's own
//      timeout, not a bounded wait of the policy (those return false and the policy goes on);
//   2. the action's control was one the policy had already found (every Actor action acts on a
//      control inside a scope it saw visible, or on the dialog its previous click opened);
//   3. no fault of the condition can keep such a control from being actionable: the layers' faults
//      act before the surface exists (the Access hold), add actionable controls (decoys), or act on
//      the server after a click completed (ignored saves, commit delays, saves required). A fault
//      not classified here is taken to be able to block: its timeouts stay the agent's.
import type { Faults } from '../../core/layers.ts';
import type { PolicyMoments } from '../agents/contract.ts';
import { ACTION_TIMEOUT_MS } from './policies/actor.ts';

/** What each fault does to the controls a policy acts on. */
const faultEffect: Record<string, 'before-surface' | 'adds-controls' | 'server-side' | 'blocks'> = {
  reveal_after_ms: 'before-surface',
  decoys: 'adds-controls',
  swallow_clicks: 'server-side',
  commit_delay_ms: 'server-side',
  saves_required: 'server-side',
};

/** Whether a condition's faults can keep a found control from being actionable (an unknown active fault can). */
export function faultsCanBlockActions(faults: Faults): boolean {
  const neutral: Record<string, number> = { saves_required: 1 };
  return Object.entries(faults).some(([key, value]) => value !== (neutral[key] ?? 0) && (faultEffect[key] ?? 'blocks') === 'blocks');
}

export interface InfrastructureInput {
  /** the trace's error (the agent's result), first line */
  error: string | null;
  /** the harness action that ran out of its own bound, as the Actor recorded it (null: none did, or an outside agent) */
  actionTimeout: PolicyMoments['actionTimeout'];
  faults: Faults;
}

/** Why the trace's failure is the machine's (a stall), or null when it is the agent's or there is none. */
export function infrastructureError(x: InfrastructureInput): string | null {
  const t = x.actionTimeout;
  if (x.error === null || t === null) return null;
  if (t.timeoutMs !== ACTION_TIMEOUT_MS || !/\bTimeout \d+ms exceeded/.test(t.message)) return null;
  if (!x.error.startsWith(t.message)) return null; // the trace ended of something else
  if (faultsCanBlockActions(x.faults)) return null;
  return `stall: the harness's own ${t.action} ran out of its ${t.timeoutMs} ms on a control no fault blocks (${t.message})`;
}
