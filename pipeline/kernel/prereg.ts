// Preregistrations: Markdown files in prereg/ with a small front matter (schemas/prereg.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { ValidationError } from '../../core/errors.ts';
import { parse as parseYaml } from 'yaml';

import type { PreregFrontMatter } from '../../core/contracts.ts';

export type Prereg = PreregFrontMatter & { file: string };

type Value = string | null | Value[] | { [key: string]: Value };

/** YAML's failsafe schema reads every scalar as text; an empty value, null or ~ is null. */
function nulls(v: unknown): Value {
  if (typeof v === 'string') return v === '' || v === 'null' || v === '~' ? null : v;
  if (Array.isArray(v)) return v.map(nulls);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nulls(x)]));
  return null;
}

/** The front matter of a prereg: the YAML block between --- fences at the top of the file. */
export function frontMatter(file: string): Record<string, Value> {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new ValidationError(rel(file), 1, '', 'has no front matter (--- id, study, arm, version, supersedes ---)');
  let parsed: unknown;
  try {
    parsed = parseYaml(m[1]!, { schema: 'failsafe', prettyErrors: false });
  } catch (cause) {
    const line = (cause as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new ValidationError(rel(file), line ? line + 1 : 2, '', `front matter is not YAML: ${(cause as Error).message.split('\n')[0]}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError(rel(file), 2, '', 'front matter is not a list of "key: value" lines');
  return nulls(parsed) as Record<string, Value>;
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
  const all = readPreregs().filter((p) => p.study === study && p.arm === arm);
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
  return all
    .filter((p) => p.supersedes && !ids.has(p.supersedes))
    .map((p) => `${p.file}: supersedes ${p.supersedes}, which is no prereg in prereg/`);
}
