import { selectorOnly } from './selector-only.ts';
import { semanticRecovery } from './semantic-recovery.ts';
import { verificationAware } from './verification-aware.ts';
import { singleAction } from './single-action.ts';
import type { LayersPolicy } from './policy.ts';

/** The three reference policies of the main arm, in the paper's order. */
export const referencePolicies: readonly LayersPolicy[] = [selectorOnly, semanticRecovery, verificationAware];
export const layersPolicies: Record<string, LayersPolicy> = Object.fromEntries(
  [...referencePolicies, singleAction].map((p) => [p.name, p]),
);
export type { LayersPolicy } from './policy.ts';
