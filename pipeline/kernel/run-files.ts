// Which file holds the registered run of a study's arm in a browser (layers and evidence alike), and how a redo moves it aside.
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../../core/paths.ts';
import { excludeFile } from './exclude.ts';

export function existingRun(study: string, arm: string, browser: string, smoke: boolean): string | undefined {
  const dir = smoke ? paths.excludedArm(study, arm) : paths.rawArm(study, arm);
  if (!fs.existsSync(dir)) return undefined;
  const prefix = `${study}-${arm}-${browser}-`;
  const found = fs.readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.jsonl') && (!smoke || f.includes('-smoke-'))).sort();
  return found.length ? path.join(dir, found.at(-1)!) : undefined;
}

export function newRunId(study: string, arm: string, browser: string, smoke: boolean): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${study}-${arm}-${browser}-${smoke ? 'smoke-' : ''}${stamp}`;
}

/** The run to write into: the existing one (to resume or report), a fresh one, or, with redo, a fresh one after moving the old aside. */
export function chooseRun(study: string, arm: string, browser: string, options: { smoke: boolean; redo?: string }): string {
  const existing = options.smoke ? undefined : existingRun(study, arm, browser, false);
  if (existing && options.redo) {
    excludeFile(existing, study, arm, `superseded by a redo: ${options.redo}`);
    return newRunId(study, arm, browser, options.smoke);
  }
  return existing ? path.basename(existing, '.jsonl') : newRunId(study, arm, browser, options.smoke);
}
