// The real-applications arm's conditions, seeded: written to data/tasks/layers-real-apps.jsonl.
//
//   each family the proxy faults (families.ts):  baseline × 6
//                                                + 5 layers × 3 severities × 2          = 36
//   each case an application ships with:         6, under its own Verification layer    =  6
//
// Within a family, layer and severity, the variants (which value, post or page) are taken in an
// order drawn from (seed, family, layer, severity), so every variant is used and no condition
// depends on how many came before it. The fault proxy draws its own choices (where a decoy stands)
// from the seed and the condition id. A condition carries its family's facts for its variant (the
// fault spec, the input, the notice, the postcondition), so the frozen file holds what it is. The
// same seed and family files give a byte-identical file.
import { layers, type Layer } from '../../../core/layers.ts';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { rng } from '../../kernel/random.ts';
import { readFamilies, variantOf, type Family } from './families.ts';
import type { FamilyCondition } from '../../../fixtures/real-app.ts';

export const REAL_APPS_SEED = 'rstackbench-layers-real-apps-v1';
export const BASELINE_REPS = 6;
export const FAULT_REPS = 2;
export const APP_FAULT_REPS = 6;

const faultLayers = layers.filter((l) => l !== 'baseline');

/** What a condition carries of its family for its variant: the instruction, the start page, the input, the fault spec, the notice and the postcondition. */
export function variantFacts(c: FamilyCondition): Pick<LayersRealAppsTask, 'instruction' | 'start_path' | 'input' | 'spec' | 'notice' | 'postcondition'> {
  return {
    instruction: c.instruction,
    start_path: c.start,
    input: c.input as LayersRealAppsTask['input'],
    spec: c.spec,
    notice: { text: c.notice.text, selector: c.notice.selector },
    postcondition: c.postcondition,
  };
}

/** The condition's target: the postcondition's key and the value the variant expects. */
export const variantTarget = (c: FamilyCondition): LayersRealAppsTask['target'] => ({ key: `${c.postcondition.query}(${c.postcondition.args.join(', ')})`, value: c.expected ?? '' });

function conditions(seed: string, family: Family, layer: Layer, severity: number, reps: number): LayersRealAppsTask[] {
  const order = rng(seed, family.id, layer, severity).shuffle(family.data.variants.map((v) => v.id));
  return Array.from({ length: reps }, (_, i) => {
    const c = variantOf(family, order[i % order.length]!);
    const rep = i + 1;
    return {
      schema: 'task/1',
      study: 'layers',
      arm: 'real-apps',
      condition_id: `${family.id}-${layer}-${severity}-${String(rep).padStart(2, '0')}`,
      app: family.app,
      family: family.id,
      variant: c.variant,
      rep,
      layer,
      severity,
      fault_source: family.appFault ? 'app' : layer === 'baseline' ? 'none' : 'proxy',
      seed,
      ...variantFacts(c),
      target: variantTarget(c),
    };
  });
}

/** The conditions of one version of the arm: a family `introduced` by a later version is not among them. */
export function generateRealAppsTasks(seed = REAL_APPS_SEED, families = readFamilies(), armVersion = 1): LayersRealAppsTask[] {
  const out: LayersRealAppsTask[] = [];
  for (const family of families.filter((f) => (f.data.introduced ?? 1) <= armVersion)) {
    if (family.appFault) {
      out.push(...conditions(seed, family, family.appFault, 0, APP_FAULT_REPS));
      continue;
    }
    out.push(...conditions(seed, family, 'baseline', 0, BASELINE_REPS));
    for (const layer of faultLayers) for (const severity of [1, 2, 3]) out.push(...conditions(seed, family, layer, severity, FAULT_REPS));
  }
  return out;
}
