// The venv of other benchmarks' evaluators (evaluators/, git-ignored evaluators/.venv), made from a
// complete pinned list and installed with --no-deps, so that exactly those packages and versions are
// there: webarena-verified 1.2.3 and its closure (evaluators/requirements.txt). Only its evaluators
// run (evaluators/webarena-verified/score.py): no browser, no Docker site, nothing downloaded but wheels.
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { isMain } from '../../core/entry.ts';
import { codeRoot, rel } from '../../core/paths.ts';
import { ensureVenv, ensureVenvSupport, venvCurrent, type VenvSpec } from '../steps/venv.ts';

export const evaluatorsDir = path.join(codeRoot, 'evaluators');

const evaluators: VenvSpec = {
  venv: path.join(evaluatorsDir, '.venv'),
  requirements: [path.join(evaluatorsDir, 'requirements.txt')],
  noDeps: true,
};

/** evaluators/.venv's python, for the adapters' commands */
export const evaluatorsPython = path.join(evaluators.venv, 'bin', 'python');

/** WebArena-Verified's adapter: JSON lines of traces in, one verdict per trace out (evaluators/README.md) */
export const webarenaVerifiedScore = path.join(evaluatorsDir, 'webarena-verified', 'score.py');

export function evaluatorsVenvCurrent(): boolean {
  return venvCurrent(evaluators);
}

/** Makes evaluators/.venv unless it is current; returns whether it made it. */
export async function ensureEvaluatorsVenv(label = 'evaluators'): Promise<boolean> {
  await ensureVenvSupport(label);
  return ensureVenv(evaluators, label);
}

if (isMain(import.meta.url)) {
  await main({
    name: 'evaluators-install',
    summary: "make the venv of other benchmarks' evaluators (evaluators/.venv: webarena-verified 1.2.3, pinned) unless it is current",
    usage: 'make evaluators',
    options: {},
    async run() {
      const started = performance.now();
      const made = await ensureEvaluatorsVenv();
      process.stdout.write(`${rel(evaluators.venv)}: ${made ? `made in ${Math.round((performance.now() - started) / 1000)} s` : 'current'}${venvCurrent(evaluators) ? '' : ' (not current!)'}\n`);
      return 0;
    },
  });
}
