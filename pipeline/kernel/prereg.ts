// Preregistrations: Markdown files in prereg/ with a small front matter (schemas/prereg.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { ValidationError } from '../../core/errors.ts';
import { readFrontMatter } from '../../core/front-matter.ts';
import type { PreregFrontMatter } from '../../core/contracts.ts';

export type Prereg = PreregFrontMatter & { file: string };

/** Every prereg in prereg/, its YAML front matter validated (drafts in subfolders are not preregistrations). */
export function readPreregs(): Prereg[] {
  const dir = paths.prereg();
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => {
    const file = path.join(dir, f);
    return { ...validate<PreregFrontMatter>('prereg', readFrontMatter(file, rel(file)), { file: rel(file) }), file: rel(file) };
  });
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
