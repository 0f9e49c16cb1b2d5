// The transport arm's conditions on the real applications, seeded: data/tasks/layers-transport.jsonl.
//
//   each family the proxy faults (real-apps/families.ts), for each transport fault × severity 1-3:
//       the condition (its layer baseline, the fault on top)                          15
//       its control: the same variant, the same layer, no transport fault             15
//   each designed compound pair (design.ts):
//       the condition (two layers, or a layer and a transport fault)                   5
//       its control, for a pair with a transport fault: the layer alone                 3
//                                                                              = 38 per family
//
// The variant of each condition and its control is drawn from (seed, family, what the condition
// is), so no condition depends on how many came before it; a condition carries its family's facts
// for its variant (the fault spec, the input, the notice, the postcondition, the change count), so
// the frozen file holds what it is. The same seed and family files give a byte-identical file.
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { rng } from '../../kernel/random.ts';
import { readFamilies, variantOf, type Family } from '../real-apps/families.ts';
import { compoundPairs, transportFaults, transportSeverities } from './design.ts';

export const TRANSPORT_SEED = 'rstackbench-layers-transport-v1';

type Part = Pick<LayersRealAppsTask, 'layer' | 'severity'> & { also?: LayersRealAppsTask['also']; transport?: LayersRealAppsTask['transport'] };

function condition(seed: string, family: Family, id: string, drawKey: string, part: Part): LayersRealAppsTask {
  const variant = rng(seed, family.id, drawKey).pick(family.data.variants.map((v) => v.id));
  const c = variantOf(family, variant);
  const faulted = part.layer !== 'baseline' || part.also !== undefined || part.transport !== undefined;
  return {
    schema: 'task/1',
    study: 'layers',
    arm: 'transport',
    condition_id: `${family.id}-${id}`,
    app: family.app,
    family: family.id,
    variant: c.variant,
    rep: 1,
    layer: part.layer,
    severity: part.severity,
    ...(part.also ? { also: part.also } : {}),
    ...(part.transport ? { transport: part.transport } : {}),
    fault_source: faulted ? 'proxy' : 'none',
    seed,
    instruction: c.instruction,
    start_path: c.start,
    input: c.input as LayersRealAppsTask['input'],
    spec: c.spec,
    notice: { text: c.notice.text, selector: c.notice.selector },
    postcondition: c.postcondition,
    ...(c.changes ? { changes: c.changes } : {}),
    target: { key: `${c.postcondition.query}(${c.postcondition.args.join(', ')})`, value: c.expected ?? '' },
  };
}

export function generateTransportTasks(seed = TRANSPORT_SEED, families = readFamilies()): LayersRealAppsTask[] {
  const out: LayersRealAppsTask[] = [];
  for (const family of families) {
    if (family.appFault) continue; // a case the application ships with: no layer the proxy makes
    for (const fault of transportFaults) {
      for (const severity of transportSeverities) {
        const key = `transport ${fault} ${severity}`;
        out.push(condition(seed, family, `transport-${fault}-${severity}`, key, { layer: 'baseline', severity: 0, transport: { fault, severity } }));
        out.push(condition(seed, family, `transport-${fault}-${severity}-control`, key, { layer: 'baseline', severity: 0 }));
      }
    }
    for (const pair of compoundPairs) {
      const key = `compound ${pair.id}`;
      const id = `compound-${pair.id.replace('+', '-')}`;
      out.push(condition(seed, family, id, key, { layer: pair.layer, severity: pair.severity, ...(pair.also ? { also: pair.also } : {}), ...(pair.transport ? { transport: pair.transport } : {}) }));
      if (pair.transport) out.push(condition(seed, family, `${id}-control`, key, { layer: pair.layer, severity: pair.severity }));
    }
  }
  return out;
}

/** The control of a condition: the same variant and layers without the transport fault (the tables pair them by id). */
export const controlId = (conditionId: string) => `${conditionId}-control`;
