// Preregistrations: Markdown files in prereg/ with a small front matter (schemas/prereg.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { ValidationError } from '../../core/errors.ts';
import { readFrontMatter, type FrontMatterValue } from '../../core/front-matter.ts';
import type { PreregFrontMatter } from '../../core/contracts.ts';

export type Prereg = PreregFrontMatter & { file: string };

/** The front matter of a prereg (core/front-matter.ts: YAML). */
export function frontMatter(file: string): Record<string, FrontMatterValue> {
  return readFrontMatter(file, rel(file));
}

/** Every prereg in prereg/ (drafts in subfolders are not preregistrations). */
export function readPreregs(): Prereg[] {
  const dir = paths.prereg();
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => {
    const file = path.join(dir, f);
    return { ...validate<PreregFrontMatter>('prereg', frontMatter(file), { file: rel(file) }), file: rel(file) };
  });
}

/** The newest protocol in force for a study arm: the prereg no other prereg of the arm supersedes. */
export function protocolFor(study: string, arm: string): Prereg | undefined {
  const all = readPreregs().filter((p) => p.study === study && p.arm === arm && !p.amends);
  const superseded = new Set(all.map((p) => p.supersedes).filter(Boolean));
  const current = all.filter((p) => !superseded.has(p.id));
  return current.sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true })).at(-1);
}

/** Every prereg's front matter is valid, ids are unique, and `supersedes` names an existing prereg. */
export function checkPreregs(): string[] {
  const all = readPreregs();
  const ids = new Map<string, string>();
  for (const p of all) {
    if (ids.has(p.id)) throw new ValidationError(p.file, 1, 'id', `${p.id} is already used by ${ids.get(p.id)}`);
    ids.set(p.id, p.file);
  }
  return [
    ...all.filter((p) => p.supersedes && !ids.has(p.supersedes)).map((p) => `${p.file}: supersedes ${p.supersedes}, which is no prereg in prereg/`),
    ...all.filter((p) => p.amends && !ids.has(p.amends)).map((p) => `${p.file}: amends ${p.amends}, which is no prereg in prereg/`),
  ];
}
