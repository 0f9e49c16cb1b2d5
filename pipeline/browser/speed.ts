// The fast settings that make bench measured and make reproduce REDO=1 uses: how many units run at
// once per arm and browser, and which Chromium binary. The registered runs of the record ran one unit
// at a time in /usr/bin/chromium; the evidence arms' amendments cap these counts for registered runs
// (prereg/evidence-controlled-amendment-2.md: 16; prereg/evidence-arm-a-amendment-3.md: 1). The layers preregs fix no worker count (timing-sensitive rows are flagged).
//
// Why these numbers (bench/results.json, bench/runs/, README "Speed"): Chromium's headless shell at 6
// contexts keeps both cores busy with 0 flips. Firefox's parent process does the BiDi work of every
// context on its main thread, one core flat out: more contexts add little speed and slow each trace
// down. At 8 a trace took about 5 times as long as alone, beyond the ×0.5–×4 band inside which
// amendment 7 flags a row, and 6 State rows flipped unflagged; at 3, 0 flips between the naive harness
// and ours. Arm A (evidence in Firefox) runs one row at a time (prereg/evidence-arm-a-amendment-3.md):
// at 16 at once a smoke run lost the page-clock mapping, and at 8 and at 4 a full rerun hung Firefox.
import fs from 'node:fs';
import type { BrowserName } from './launch.ts';

/** Debian's chromium-headless-shell package puts the old headless shell here (same version as chromium). */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const FAST_WORKERS: { layers: Record<BrowserName, number>; evidence: Record<BrowserName, number> } = {
  layers: { chromium: 6, firefox: 3 },
  evidence: { chromium: 16, firefox: 1 },
};

/** The headless shell when it is installed, else null (the caller says so and runs the full Chromium). */
export const headlessShell = (): string | null => (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : null);
