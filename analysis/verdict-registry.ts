// The evidence policies whose recorded verdicts `make reanalyze` recomputes from the events.
// They are the very functions the runs used (the verifier's five, verifier/src/policies.ts, and
// Arm B's, core/evidence/production.ts; pure functions of the timeline): the check is that the
// recorded verdicts are what those functions give on the recorded events.
// A recorded policy without a function here makes the reanalysis fail, naming the policy.
import { verdictRegistry, type VerdictRegistry } from './verdicts.ts';
import { productionPolicies } from '../core/evidence/production.ts';
import { controlledPolicies } from '../verifier/src/policies.ts';

export const registry: VerdictRegistry = verdictRegistry({ controlled: controlledPolicies, 'arm-a': controlledPolicies, 'arm-b': productionPolicies });
