// The evidence policies whose recorded verdicts `make reanalyze` recomputes from the events.
// Fill it from the modules that made the verdicts, by the names the runs record them under:
//   import { controlledPolicies } from '../core/evidence/...';   // controlled and arm A
//   import { armBPolicies } from '../core/evidence/...';         // arm B
//   export const registry = verdictRegistry({ all: controlledPolicies, 'arm-b': armBPolicies });
// A recorded policy without a function here makes the reanalysis fail, naming the policy.
import { verdictRegistry, type VerdictRegistry } from './verdicts.ts';
import { productionPolicies } from '../core/evidence/production.ts';

export const registry: VerdictRegistry = verdictRegistry({ 'arm-b': productionPolicies });
