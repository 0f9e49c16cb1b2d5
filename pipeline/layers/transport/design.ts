// The transport arm's design (issue 37): which transport faults and which compound conditions, as
// data the generator (generate.ts), the prereg and the tables read. A compound condition is two
// things at once: two layers (the proxy makes both), or a layer and a transport fault. Each is
// chosen for what it asks of a policy that neither part asks alone:
import type { Layer } from '../../../core/layers.ts';
import { transportFaultNames } from '../../../proxy/src/index.ts';

/**
 * The transport faults of the arm's design: a fixed list, so that a fault added to the proxy's table
 * (proxy/faults/transport.json) enters no frozen design by itself. Each must be in that table.
 */
export const transportFaults = ['document-error', 'write-error', 'lost-response', 'asset-error', 'popup'] as const;
export type TransportFaultName = (typeof transportFaults)[number];
for (const fault of transportFaults) {
  if (!transportFaultNames().includes(fault)) throw new Error(`pipeline/layers/transport/design.ts: the designed transport fault ${fault} is not in proxy/faults/transport.json`);
}

export interface CompoundPair {
  id: string;
  layer: Exclude<Layer, 'baseline'>;
  severity: 1 | 2 | 3;
  also: { layer: Exclude<Layer, 'baseline'>; severity: 1 | 2 | 3 } | null;
  transport: { fault: TransportFaultName; severity: 1 | 2 | 3 } | null;
  /** what the pair asks, and the outcome it is expected to give each reference policy */
  why: string;
}

/** The designed pairs, each part at severity 1 (the mildest: the pair's effect is the two together, not one part's worst). */
export const compoundPairs: readonly CompoundPair[] = [
  {
    id: 'access+state', layer: 'access', severity: 1, also: { layer: 'state', severity: 1 }, transport: null,
    why: "the paper's 'delayed access followed by stale perception': the control shows late, and once saved the store holds the write back; a policy that waits gets past the first and is then told saved before it is",
  },
  {
    id: 'perception+verification', layer: 'perception', severity: 1, also: { layer: 'verification', severity: 1 }, transport: null,
    why: 'a look-alike beside the target, and the write of the real one answered saved and dropped: whichever control a policy activates, the page says saved and nothing is stored',
  },
  {
    id: 'state+write-error', layer: 'state', severity: 1, also: null, transport: { fault: 'write-error', severity: 1 },
    why: 'the first write fails with a server error (never stored); the retry is answered saved and stored late: only a policy that retries and then waits for the store ends right',
  },
  {
    id: 'action+lost-response', layer: 'action', severity: 1, also: null, transport: { fault: 'lost-response', severity: 1 },
    why: 'the first activation does nothing, and the write of the next is stored with its answer lost: a policy that retries until it sees success writes again',
  },
  {
    id: 'perception+popup', layer: 'perception', severity: 1, also: null, transport: { fault: 'popup', severity: 1 },
    why: 'a pop-up over the page whose big button leads away, above a page with a look-alike of the target: an application layer under a transport fault',
  },
];

export const transportSeverities = [1, 2, 3] as const;
