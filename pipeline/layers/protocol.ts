// The registered constants of the `layers` protocol (prereg/layers.md, prereg/layers-horizon.md).
import { readPreregs } from '../kernel/prereg.ts';
import type { FlagRule } from './scoring.ts';

/** prereg/layers-amendment-2.md: 100 ms after the server received the policy's last save */
export const MAIN_BOUNDARY_MS = 100;
export const HORIZONS_MS = [50, 150, 350, 750, 1000] as const;

/** The amendment that registers the speed rule and the stall rule (scoring.ts, infrastructure.ts). */
export const SPEED_RULE_AMENDMENT = 'layers-amendment-7';
/** how often a unit that stalled is run again under it (each failed attempt is kept in data/excluded/) */
export const STALL_RETRIES = 2;

/**
 * The timing-sensitivity rule in force: amendment 7's speed rule once it is in prereg/ (the run
 * gate refuses a prereg/ that is not frozen), for every arm that runs the three apps, as amendment 6
 * did; amendment 5's rule before it, with which the registered rows were made.
 */
export function flagRuleInForce(preregIds: readonly string[] = readPreregs().map((p) => p.id)): FlagRule {
  return preregIds.includes(SPEED_RULE_AMENDMENT) ? 'speed' : 'amendment-5';
}
