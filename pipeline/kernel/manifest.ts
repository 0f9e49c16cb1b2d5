// sha256 manifests in `sha256sum` format, so a reviewer can check them with `sha256sum -c`
// from the repository root, without our code.
import fs from 'node:fs';
import path from 'node:path';
import { outputRoot, paths, rel } from '../../core/paths.ts';
import { sha256File } from '../../core/hash.ts';
import { validate } from '../../core/validate.ts';
import { listFiles, writeFileAtomic } from './files.ts';

import type { ManifestLine } from '../../core/contracts.ts';

export function parseManifest(file: string): ManifestLine[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
      return validate<ManifestLine>('manifest-line', m ? { sha256: m[1], file: m[2] } : { line }, { file: rel(file), line: i + 1 });
    });
}

export async function writeManifest(file: string, files: string[]): Promise<number> {
  const lines: string[] = [];
  for (const f of [...files].sort()) lines.push(`${await sha256File(f)}  ${rel(f)}`);
  writeFileAtomic(file, lines.length ? lines.join('\n') + '\n' : '');
  return lines.length;
}

/** Problems: a listed file missing or changed, or a file present but not listed (paths as rel() spells a run's outputs). */
export async function checkManifest(file: string, present: string[]): Promise<string[]> {
  const problems: string[] = [];
  const listed = parseManifest(file);
  const seen = new Set<string>();
  for (const { sha256, file: f } of listed) {
    seen.add(f);
    const abs = path.join(outputRoot(), f);
    if (!fs.existsSync(abs)) problems.push(`${f}: listed in ${rel(file)} but missing`);
    else if ((await sha256File(abs)) !== sha256) problems.push(`${f}: sha256 differs from ${rel(file)}`);
  }
  for (const f of present) if (!seen.has(rel(f))) problems.push(`${rel(f)}: not listed in ${rel(file)}`);
  return problems;
}

/** The data every manifest of data covers: raw traces, excluded attempts, and the run log. */
export function dataFiles(): string[] {
  const runLog = fs.existsSync(paths.runLog()) ? [paths.runLog()] : [];
  return [...listFiles(paths.raw()), ...listFiles(paths.excluded()), ...runLog].filter((f) => !f.endsWith('.gitkeep'));
}

export function updateDataManifest(): Promise<number> {
  return writeManifest(paths.dataManifest(), dataFiles());
}
