// Preregistrations: Markdown files in prereg/ with a small front matter (schemas/prereg.schema.json).
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { ValidationError } from '../../core/errors.ts';

export interface Prereg { id: string; study: string; arm: string; version: string; supersedes?: string | null; title?: string; file: string }

/** Parses the small front matter block of a prereg (`key: value` lines between --- fences). */
export function frontMatter(file: string): Record<string, string | null> {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new ValidationError(rel(file), 1, '', 'has no front matter (--- id, study, arm, version, supersedes ---)');
  const out: Record<string, string | null> = {};
  m[1]!.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const kv = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!kv) throw new ValidationError(rel(file), i + 2, '', `is not a "key: value" line: ${JSON.stringify(line)}`);
    const value = kv[2]!.trim().replace(/^["']|["']$/g, '');
    out[kv[1]!] = value === '' || value === 'null' || value === '~' ? null : value;
  });
  return out;
}

/** Every prereg in prereg/ (drafts in subfolders are not preregistrations). */
export function readPreregs(): Prereg[] {
  const dir = paths.prereg();
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => {
    const file = path.join(dir, f);
    return { ...validate<Omit<Prereg, 'file'>>('prereg', frontMatter(file), { file: rel(file) }), file: rel(file) };
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
