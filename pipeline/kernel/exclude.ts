// data/excluded/: what is not registered evidence (smoke runs, torn lines, superseded runs),
// kept with the reason. Nothing is deleted; every move is logged in data/excluded/REASONS.jsonl.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { toLine } from '../../core/jsonl.ts';
import { appendDurable, countRows } from './files.ts';

import type { Exclusion } from '../../core/contracts.ts';

export function recordExclusion(e: Omit<Exclusion, 'at'>): Exclusion {
  const entry = validate<Exclusion>('exclusion', { at: new Date().toISOString(), ...e }, { file: rel(paths.exclusionLog()) });
  appendDurable(paths.exclusionLog(), toLine(entry));
  return entry;
}

/** A free name in dir for base+ext: base.ext, base.1.ext, base.2.ext … */
export function freeName(dir: string, base: string, ext: string): string {
  for (let i = 0; ; i++) {
    const p = path.join(dir, `${base}${i ? `.${i}` : ''}${ext}`);
    if (!fs.existsSync(p)) return p;
  }
}

/** Moves a registered run file to data/excluded/<study>/<arm>/ with the reason. */
export function excludeFile(file: string, study: string, arm: string, reason: string): string {
  const dir = paths.excludedArm(study, arm);
  fs.mkdirSync(dir, { recursive: true });
  const ext = path.extname(file);
  const to = freeName(dir, path.basename(file, ext), ext);
  const rows = countRows(file);
  fs.renameSync(file, to);
  // what a run keeps beside its file goes with it, under the same new name (its rows name their files relative to it)
  for (const beside of ['.files', '.stderr']) {
    const from = file.replace(/\.jsonl$/, beside);
    if (from !== file && fs.existsSync(from)) fs.renameSync(from, to.replace(/\.jsonl$/, beside));
  }
  recordExclusion({ file: rel(to), from: rel(file), rows, reason });
  return to;
}
