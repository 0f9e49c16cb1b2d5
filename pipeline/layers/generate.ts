// The `layers` task generator: 288 seeded conditions, written to data/tasks/layers.jsonl.
//   cards:   24 baseline + 24 per layer = 144
//   profile: 12 baseline + 12 per layer =  72
//   modal:   12 baseline + 12 per layer =  72
// Severities cycle 1, 2, 3 within each layer; target ids, initial values and requested values
// come from the seed. The same seed gives a byte-identical file.
import { layers, type Entity, type Faults, type Layer, type LayersTask, type Template } from '../../core/layers.ts';
import { modes } from '../../fixtures/layers/cards/app.ts';
import { timezones } from '../../fixtures/layers/profile/app.ts';
import { rng, type Rng } from '../kernel/random.ts';

export const DEFAULT_SEED = 'rstackbench-layers-v1';
export const perLayer: Record<Template, number> = { cards: 24, profile: 12, modal: 12 };

/** The injected fault of each layer at severity 1, 2, 3 (paper 000, "Five Reliability Layers"). */
export const severityTable = {
  access: { reveal_after_ms: [70, 180, 420] },
  perception: { decoys: [1, 2, 3] },
  action: { swallow_clicks: [1, 2, 3] },
  state: { commit_delay_ms: [120, 320, 700] },
  // the paper gives "two or three total target Save clicks by severity" for three severities
  verification: { saves_required: [2, 3, 3] },
} as const;

const noFaults: Faults = { reveal_after_ms: 0, decoys: 0, swallow_clicks: 0, commit_delay_ms: 0, saves_required: 1 };

export function faultsFor(layer: Layer, severity: number): Faults {
  const i = severity - 1;
  switch (layer) {
    case 'baseline': return { ...noFaults };
    case 'access': return { ...noFaults, reveal_after_ms: severityTable.access.reveal_after_ms[i]! };
    case 'perception': return { ...noFaults, decoys: severityTable.perception.decoys[i]! };
    case 'action': return { ...noFaults, swallow_clicks: severityTable.action.swallow_clicks[i]! };
    case 'state': return { ...noFaults, commit_delay_ms: severityTable.state.commit_delay_ms[i]! };
    case 'verification': return { ...noFaults, saves_required: severityTable.verification.saves_required[i]! };
  }
}

const projectNames = ['Atlas', 'Borealis', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Helix', 'Iris', 'Juniper', 'Kestrel', 'Lumen'];
const decoySuffixes = ['staging', 'archive', 'sandbox'];
const people = [
  ['rdiaz', 'Rosa Diaz'], ['tnakamura', 'Taro Nakamura'], ['aokafor', 'Ada Okafor'], ['mlindqvist', 'Maja Lindqvist'],
  ['jreyes', 'Jose Reyes'], ['pshah', 'Priya Shah'], ['kmensah', 'Kofi Mensah'], ['evolkov', 'Elena Volkov'],
  ['lcruz', 'Lia Cruz'], ['hkim', 'Hana Kim'],
] as const;
const decoyAccountSuffixes = ['-old', '.test', '2'];
const recordKinds = ['Invoice', 'Order', 'Ticket', 'Contract'];

interface Scene { target: Entity; targetInitial: Entity['value']; decoysBefore: Entity[]; after: Entity[]; instruction: string }

function others<T>(r: Rng, pool: readonly T[], exclude: T, count: number): T[] {
  return r.shuffle(pool.filter((x) => x !== exclude)).slice(0, count);
}

function cardsScene(r: Rng, decoys: number): Scene {
  const name = r.pick(projectNames);
  const initial = r.pick(modes);
  const requested = r.pick(modes.filter((m) => m !== initial));
  const after = others(r, projectNames, name, 1 + r.int(2)).map((n) => ({ key: n, value: r.pick(modes) }));
  const decoysBefore = r.shuffle(decoySuffixes).slice(0, decoys).map((s) => ({ key: `${name} ${s}`, value: initial }));
  return {
    target: { key: name, value: requested },
    targetInitial: initial,
    decoysBefore,
    after,
    instruction: `In the project "${name}", set Mode to "${requested}" and save the change.`,
  };
}

function profileScene(r: Rng, decoys: number): Scene {
  const [handle, displayName] = r.pick(people);
  const initialZone = r.pick(timezones);
  const requestedZone = r.pick(timezones.filter((z) => z !== initialZone));
  const [, otherName] = r.pick(people.filter(([h]) => h !== handle));
  const requestedName = `${displayName.split(' ')[0]} ${otherName.split(' ')[1]}`; // a plausible new display name
  const initial = { display_name: displayName, timezone: initialZone };
  const after = others(r, people, people.find(([h]) => h === handle)!, 1 + r.int(2)).map(([h, n]) => ({
    key: h,
    value: { display_name: n, timezone: r.pick(timezones) },
  }));
  const decoysBefore = r.shuffle(decoyAccountSuffixes).slice(0, decoys).map((s) => ({ key: `${handle}${s}`, value: { ...initial } }));
  return {
    target: { key: handle, value: { display_name: requestedName, timezone: requestedZone } },
    targetInitial: initial,
    decoysBefore,
    after,
    instruction: `In account ${handle}, set the display name to "${requestedName}" and the time zone to "${requestedZone}", then save the profile.`,
  };
}

function modalScene(r: Rng, decoys: number): Scene {
  const kind = r.pick(recordKinds);
  const number = 1000 + r.int(9000);
  const label = `${kind} ${number}`;
  const after = Array.from({ length: 2 + r.int(2) }, (_, i) => ({ key: `${r.pick(recordKinds)} ${1000 + ((number + 137 * (i + 1)) % 9000)}`, value: 'present' }));
  const decoysBefore = r.shuffle([`${label} (draft)`, `${label}-A`, `${label} copy`]).slice(0, decoys).map((k) => ({ key: k, value: 'present' }));
  return { target: { key: label, value: 'deleted' }, targetInitial: 'present', decoysBefore, after, instruction: `Delete the record "${label}".` };
}

const scenes: Record<Template, (r: Rng, decoys: number) => Scene> = { cards: cardsScene, profile: profileScene, modal: modalScene };

export function makeCondition(seed: string, template: Template, layer: Layer, index: number): LayersTask {
  const severity = layer === 'baseline' ? 0 : (index % 3) + 1;
  const faults = faultsFor(layer, severity || 1);
  const r = rng(seed, template, layer, index);
  const scene = scenes[template](r, faults.decoys);
  return {
    schema: 'task/1',
    study: 'layers',
    condition_id: `${template}-${layer}-${String(index + 1).padStart(2, '0')}`,
    template,
    layer,
    severity,
    seed,
    instruction: scene.instruction,
    target: scene.target,
    entities: [...scene.decoysBefore, { key: scene.target.key, value: scene.targetInitial }, ...scene.after],
    faults,
  };
}

export function generateLayersTasks(seed = DEFAULT_SEED): LayersTask[] {
  const out: LayersTask[] = [];
  for (const template of ['cards', 'profile', 'modal'] as const) {
    for (const layer of layers) {
      for (let i = 0; i < perLayer[template]; i++) out.push(makeCondition(seed, template, layer, i));
    }
  }
  return out;
}
