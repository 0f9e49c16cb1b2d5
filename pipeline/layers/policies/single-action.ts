// The horizon ablation's policy: bind the target, request the value, activate the commit control
// once, then nothing: the runner waits passively and the server scores at each horizon.
import type { LayersPolicy } from './policy.ts';
import { bindAndCommit } from './semantic-recovery.ts';

export const singleAction: LayersPolicy = {
  name: 'single-action',
  async run(ctx) {
    return (await bindAndCommit(ctx, 1))
      ? { done: true, message: 'the success showed after its one activation' }
      : { done: false, message: 'no success after its one activation' };
  },
};
