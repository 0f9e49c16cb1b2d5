// The fast settings that make bench measured and make reproduce REDO=1 uses: how many units run at
// once, and which Chromium binary. The registered runs of the record ran one unit at a time in
// /usr/bin/chromium. The layers preregs fix no worker count (timing-sensitive rows are flagged); how
// many evidence rows a run may overlap is the protocol's, not a speed setting: REGISTERED_MAX_WORKERS
// in pipeline/evidence/matrix.ts.
//
// Why these numbers (bench/results.json, bench/runs/, docs/speed.md): Chromium's headless shell at 6
// contexts keeps both cores busy with 0 flips. Firefox's parent process does the BiDi work of every
// context on its main thread, one core flat out: more contexts add little speed and slow each trace
// down. At 8 a trace took about 5 times as long as alone, beyond the ×0.5–×4 band inside which
// amendment 7 flags a row, and 6 State rows flipped unflagged; at 3, 0 flips between the naive harness
// and ours. The evidence slice (Chromium) at 16 rows at once: 0 flips.
import fs from 'node:fs';
import { UsageError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import type { BrowserName } from './launch.ts';

/** Debian's chromium-headless-shell package puts the old headless shell here (same version as chromium). */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const FAST_WORKERS: { layers: Record<BrowserName, number>; evidenceChromium: number } = {
  layers: { chromium: 6, firefox: 3 },
  evidenceChromium: 16,
};

/** browser processes the layers workers are spread over (make bench --firefox-browsers measures more) */
export const FAST_BROWSERS: { layers: Record<BrowserName, number> } = {
  layers: { chromium: 1, firefox: 1 },
};

export const chromiumChoiceHelp = "shell (Debian's chromium-headless-shell, when installed) or full (/usr/bin/chromium, as the registered runs)";

/**
 * A --chromium option's value as the Chromium to run: the headless shell's path for `shell` (when it is
 * not installed: a warning, and null), null for `full` (the default executable, launch.ts).
 */
export function chromiumChoice(value: string | undefined): string | null {
  if (value !== 'shell' && value !== 'full') throw new UsageError(`--chromium takes shell or full, not ${JSON.stringify(value)}`);
  if (value === 'full') return null;
  if (fs.existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  log({ kind: 'warn', message: `${HEADLESS_SHELL} is not installed (apt-get install -y chromium-headless-shell): the full Chromium runs instead` });
  return null;
}
