// The real-applications arm's conditions, seeded: written to data/tasks/layers-real-apps.jsonl
// (version 1) and data/tasks/layers-real-apps-v2.jsonl (version 2).
//
//   version 1, each family the proxy faults:     baseline × 6
//                                                + 5 layers × 3 severities × 2          = 36
//   each case an application ships with:         6, under its own layer (app_case)      =  6
//   version 2: at least MIN_PER_CELL conditions in every (application, layer): each of an
//   application's k faulted families gets r = ceil(24 / 3k) per severity, and 3r baselines
//   (WordPress, five families: r = 2, 30 per layer; MediaWiki, three: r = 3, 27 per layer); a
//   family `introduced` by a later version is in no earlier version's conditions
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
export const REAL_APPS_SEED_V2 = 'rstackbench-layers-real-apps-v2';
export const BASELINE_REPS = 6;
export const FAULT_REPS = 2;
export const APP_FAULT_REPS = 6;
/** version 2: the fewest conditions in any (application, layer), so that a Wilson interval separates the policies (issue 47) */
export const MIN_PER_CELL = 24;

/** The seed a version's conditions are drawn with. */
export const realAppsSeed = (version: number) => (version >= 2 ? REAL_APPS_SEED_V2 : REAL_APPS_SEED);

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

function conditions(seed: string, family: Family, layer: Layer, severity: number, reps: number, version: number): LayersRealAppsTask[] {
  const order = rng(seed, family.id, layer, severity).shuffle(family.data.variants.map((v) => v.id));
  return Array.from({ length: reps }, (_, i) => {
    const c = variantOf(family, order[i % order.length]!);
    const rep = i + 1;
    return {
      schema: 'task/1',
      study: 'layers',
      ...(version >= 2 ? { version } : {}),
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

/** How many conditions per severity each faulted family of an application gets in a version. */
export function faultReps(version: number, faultedFamilies: number): number {
  return version >= 2 ? Math.ceil(MIN_PER_CELL / (3 * faultedFamilies)) : FAULT_REPS;
}

/** The conditions of one version of the arm: a family `introduced` by a later version is not among them. */
export function generateRealAppsTasks(seed = REAL_APPS_SEED, families = readFamilies(), armVersion = 1): LayersRealAppsTask[] {
  const out: LayersRealAppsTask[] = [];
  const inVersion = families.filter((f) => (f.data.introduced ?? 1) <= armVersion);
  const faulted = (app: string) => inVersion.filter((f) => f.app === app && !f.appFault).length;
  for (const family of inVersion) {
    if (family.appFault) {
      out.push(...conditions(seed, family, family.appFault, 0, APP_FAULT_REPS, armVersion));
      continue;
    }
    const reps = faultReps(armVersion, faulted(family.app));
    out.push(...conditions(seed, family, 'baseline', 0, armVersion >= 2 ? 3 * reps : BASELINE_REPS, armVersion));
    for (const layer of faultLayers) for (const severity of [1, 2, 3]) out.push(...conditions(seed, family, layer, severity, reps, armVersion));
  }
  return out;
}
