// The one reader of the fault rules for a request. The rules are data (faults/layers.json and
// faults/transport.json, or tables of a user's own in their shape): each says what it matches (a
// document the spec's pages name, the spec's write, an asset of the app), when it acts (the n-th
// matching request by WAREX's rules; a hold before forwarding), and what it does (inject into the
// document; answer in the app's place and forward late or never; an error page; a delay; the answer
// lost; a pop-up). planFor (plan.ts) resolves a condition's rules to values; these two functions
// apply them to one request, in the order the proxy (proxy.ts) meets it:
//
//   on arrival ──transportStep(plan, kind, url, counts)──▶ fired, and on which count (or not)
//      the proxy then: answers an error page, or holds the request, or marks its answer to be lost
//      or its document to get the pop-up
//   after any hold ──writeStep(plan, isWrite, writesSeen)──▶ pass, or answer now and forward
//      after forwardAfterMs (null: never)
//
// Pure, on counts the caller keeps per condition: the same requests in the same order meet the same
// faults in any process.
import type { Plan } from './plan.ts';
import { fires, type TransportPlan } from './transport.ts';

/** What a transport fault can match: the spec's write, a document of its pages, an asset of the app. */
export type RequestKind = 'write' | 'page' | 'asset';

/** The transport fault fired on one request: its plan and the count it fired on. */
export interface Fired { plan: TransportPlan; n: number }

/**
 * The condition's transport fault on a request arriving: a request of the kind it matches is counted
 * (an asset per URL, so that each script and stylesheet has its own count), and the fault fires when
 * its rule says so on that count. Null: no transport fault acts on this request.
 */
export function transportStep(plan: Plan | null, kind: RequestKind | null, url: string, counts: Map<string, number>): Fired | null {
  const transport = plan?.transport;
  if (!transport || kind === null || kind !== transport.match) return null;
  const key = kind === 'asset' ? `asset ${url}` : kind;
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  return fires(transport.fire, n) ? { plan: transport, n } : null;
}

/** What the layer does with a request once any transport hold is over. */
export type WriteStep =
  | { does: 'pass'; detail?: string }
  | { does: 'answer'; forwardAfterMs: number | null };

/**
 * The layer's write rule: the spec's write is answered by the proxy and forwarded after
 * forwardAfterMs (null: never), unless the layer lets this save through (from its passFromSave-th
 * write of the condition on, the app answers); anything else passes. `writesSeen` counts the
 * condition's writes so far, this one included. Once the saves pass, every event says so.
 */
export function writeStep(plan: Plan | null, isWrite: boolean, writesSeen: number): WriteStep {
  const rule = plan?.write ?? null;
  const passes = rule !== null && rule.passFromSave !== null && writesSeen >= rule.passFromSave;
  if (rule === null || !isWrite || passes) return { does: 'pass', ...(passes ? { detail: `save ${writesSeen}: from save ${rule!.passFromSave} on, the app answers` } : {}) };
  return { does: 'answer', forwardAfterMs: rule.forwardAfterMs };
}
