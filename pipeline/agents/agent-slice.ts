// Draws a stratified slice of the 288 `layers` conditions for an agent too slow to run them all:
// per fault layer (baseline included), k conditions of each template, each stratum its own seeded
// shuffle. The ids it prints go into the agent's prereg, under "- Slice (condition ids)", and are
// frozen with it; the same seed and counts print the same ids.
//   npx rstackbench agent-slice --seed rstackbench-agent-browser-use-v1 --cards 2 --profile 1 --modal 1
import { main, intOption } from '../../core/cli.ts';
import { layers, type LayersTask } from '../../core/layers.ts';
import { RStackError } from '../../core/errors.ts';
import { rng } from '../kernel/random.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { isMain } from '../../core/entry.ts';

export const templates = ['cards', 'profile', 'modal'] as const;

/** k[template] conditions per layer and template, layer by layer (the papers' order), ids sorted within a stratum. */
export function drawSlice(tasks: LayersTask[], seed: string, k: Record<(typeof templates)[number], number>): string[] {
  return layers.flatMap((layer) =>
    templates.flatMap((template) => {
      const pool = tasks.filter((t) => t.template === template && t.layer === layer);
      if (pool.length < k[template]) throw new RStackError(`only ${pool.length} ${template} conditions of layer ${layer}; asked for ${k[template]}`, { exitCode: 2 });
      return rng(seed, 'agent-slice', template, layer).shuffle(pool).slice(0, k[template]).map((t) => t.condition_id).sort();
    }),
  );
}

if (isMain(import.meta.url)) {
  await main({
    name: 'agent-slice',
    summary: 'print a seeded stratified slice of the layers conditions (k per template and layer) for an agent prereg\'s "- Slice (condition ids)" block',
    usage: 'agent-slice --seed SEED [--cards 2] [--profile 1] [--modal 1]',
    options: {
      seed: { type: 'string', help: 'the seed (a string; name it in the prereg)' },
      cards: { type: 'string', default: '2', help: 'configuration-card conditions per layer' },
      profile: { type: 'string', default: '1', help: 'profile-form conditions per layer' },
      modal: { type: 'string', default: '1', help: 'modal-confirmation conditions per layer' },
    },
    async run(values) {
      if (!values.seed) throw new RStackError('--seed is required: the slice is named by it in the prereg', { exitCode: 2 });
      const k = { cards: intOption(values.cards, 'cards', 2, 0), profile: intOption(values.profile, 'profile', 1, 0), modal: intOption(values.modal, 'modal', 1, 0) };
      const ids = drawSlice(readLayersTasks(), values.seed, k);
      process.stdout.write(ids.join('\n') + '\n');
      return 0;
    },
  });
}
