// The fast settings that make bench measured and make reproduce REDO=1 uses: how many units run at
// once per arm and browser, and which Chromium binary. The registered runs of the record ran one unit
// at a time in /usr/bin/chromium; the evidence arms may overlap rows only under their amendments 2
// (prereg/evidence-controlled-amendment-2.md, prereg/evidence-arm-a-amendment-2.md), which cap these
// counts. The layers preregs fix no worker count (timing-sensitive rows are flagged).
//
// Why these numbers (bench/results.json, bench/runs/, README "Speed"): Chromium's headless shell at 6
// contexts keeps both cores busy with 0 flips. Firefox's parent process does the BiDi work of every
// context on its main thread, one core flat out: more contexts add little speed and slow each trace
// down. At 8 a trace took about 5 times as long as alone, beyond the ×0.5–×4 band inside which
// amendment 7 flags a row, and 6 State rows flipped unflagged; at 3, 0 flips between the naive harness
// and ours. An evidence row in Firefox at 16 at once lost its page-clock mapping (the clock gate's
// 5 ms) in the smoke run the Arm A amendment names; at 8 every gate passed.
import fs from 'node:fs';
import type { BrowserName } from './launch.ts';

/** Debian's chromium-headless-shell package puts the old headless shell here (same version as chromium). */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const FAST_WORKERS: { layers: Record<BrowserName, number>; evidence: Record<BrowserName, number> } = {
  layers: { chromium: 6, firefox: 3 },
  evidence: { chromium: 16, firefox: 8 },
};

/** The headless shell when it is installed, else null (the caller says so and runs the full Chromium). */
export const headlessShell = (): string | null => (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : null);
