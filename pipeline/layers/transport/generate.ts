// The transport arm's conditions on the real applications, seeded: data/tasks/layers-transport.jsonl
// (version 1) and data/tasks/layers-transport-v2.jsonl (version 2: the families of the real-apps
// arm's version 2 too, each condition marked with its version, drawn with the version's own seed).
//
//   each family the proxy faults (real-apps/families.ts):
//       each transport fault × severity 1-3 on its baseline, the variant drawn         15
//       the control of each variant drawn: that variant's baseline, no fault       1 to 3
//       each designed compound pair (design.ts), the variant drawn                      5
//       the control of a pair with a transport fault: its layer alone, that variant     3
//
// A faulted condition names its control (the tables pair them); conditions that would be the same
// control are one. The variant of each condition is drawn from (seed, family, what the condition
// is), so no condition depends on how many came before it; a condition carries its family's facts
// for its variant (the fault spec, the input, the notice, the postcondition, the change count), so
// the frozen file holds what it is. The same seed and family files give a byte-identical file.
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { rng } from '../../kernel/random.ts';
import { readFamilies, variantOf, type Family } from '../real-apps/families.ts';
import { variantFacts, variantTarget } from '../real-apps/generate.ts';
import { compoundPairs, transportFaults, transportSeverities } from './design.ts';

export const TRANSPORT_SEED = 'rstackbench-layers-transport-v1';
export const TRANSPORT_SEED_V2 = 'rstackbench-layers-transport-v2';
/** The seed a version's conditions are drawn with. */
export const transportSeed = (version: number) => (version >= 2 ? TRANSPORT_SEED_V2 : TRANSPORT_SEED);
/** The arm's versions: 1 (prereg/layers-transport.md) and 2 (its amendment 2: claims, each trace's files, the seed's Verification). */
export const TRANSPORT_VERSIONS = [1, 2] as const;

type Part = Pick<LayersRealAppsTask, 'layer' | 'severity'> & Partial<Pick<LayersRealAppsTask, 'also' | 'transport' | 'control'>>;

const drawVariant = (seed: string, family: Family, key: string) => rng(seed, family.id, key).pick(family.data.variants.map((v) => v.id));

function condition(seed: string, family: Family, id: string, variant: string, part: Part, version: number): LayersRealAppsTask {
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
    ...(version >= 2 ? { version } : {}),
    layer: part.layer,
    severity: part.severity,
    ...(part.also ? { also: part.also } : {}),
    ...(part.transport ? { transport: part.transport } : {}),
    ...(part.control ? { control: part.control } : {}),
    fault_source: faulted ? 'proxy' : 'none',
    seed,
    ...variantFacts(c),
    ...(c.changes ? { changes: c.changes } : {}),
    target: variantTarget(c),
  };
}

/** The conditions of one version of the arm: a family `introduced` by a later version of the real-applications arm is not among them. */
export function generateTransportTasks(seed = TRANSPORT_SEED, families = readFamilies(), armVersion = 1): LayersRealAppsTask[] {
  const out: LayersRealAppsTask[] = [];
  for (const family of families.filter((f) => (f.data.introduced ?? 1) <= armVersion)) {
    if (family.appFault) continue; // a case the application ships with: no layer the proxy makes
    const controls = new Map<string, LayersRealAppsTask>();
    const controlFor = (id: string, part: Part, variant: string) => {
      const c = condition(seed, family, id, variant, part, armVersion);
      if (!controls.has(c.condition_id)) controls.set(c.condition_id, c);
      return c.condition_id;
    };
    for (const fault of transportFaults) {
      for (const severity of transportSeverities) {
        const variant = drawVariant(seed, family, `transport ${fault} ${severity}`);
        const control = controlFor(`control-baseline-${variant}`, { layer: 'baseline', severity: 0 }, variant);
        out.push(condition(seed, family, `transport-${fault}-${severity}`, variant, { layer: 'baseline', severity: 0, transport: { fault, severity }, control }, armVersion));
      }
    }
    for (const pair of compoundPairs) {
      const variant = drawVariant(seed, family, `compound ${pair.id}`);
      const id = `compound-${pair.id.replace('+', '-')}`;
      const control = pair.transport ? controlFor(`control-${pair.layer}-${pair.severity}-${variant}`, { layer: pair.layer, severity: pair.severity }, variant) : undefined;
      out.push(condition(seed, family, id, variant, { layer: pair.layer, severity: pair.severity, ...(pair.also ? { also: pair.also } : {}), ...(pair.transport ? { transport: pair.transport } : {}), ...(control ? { control } : {}) }, armVersion));
    }
    out.push(...controls.values());
  }
  return out;
}
