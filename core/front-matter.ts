// The small front matter of a prereg (prereg/*.md): `key: value` lines between --- fences, and lists
// written as `key:` followed by `  - item` lines (the `promises:` of an amendment). Nothing else of
// YAML: a line that is neither is an error naming its line.
import fs from 'node:fs';
import { ValidationError } from './errors.ts';

export type FrontMatterValue = string | null | string[];

export function parseFrontMatter(text: string, file: string): Record<string, FrontMatterValue> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new ValidationError(file, 1, '', 'has no front matter (--- id, study, arm, version, supersedes ---)');
  const out: Record<string, FrontMatterValue> = {};
  let list: string[] | null = null;
  m[1]!.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item) {
      if (!list) throw new ValidationError(file, i + 2, '', `is a list item under no "key:" line: ${JSON.stringify(line)}`);
      list.push(item[1]!.trim());
      return;
    }
    const kv = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!kv) throw new ValidationError(file, i + 2, '', `is not a "key: value" line: ${JSON.stringify(line)}`);
    const value = kv[2]!.trim().replace(/^["']|["']$/g, '');
    // `key:` alone opens a list (its items follow); with no items it stays null, as before lists existed
    list = value === '' ? (out[kv[1]!] = []) as string[] : null;
    if (value !== '') out[kv[1]!] = value === 'null' || value === '~' ? null : value;
  });
  for (const [k, v] of Object.entries(out)) if (Array.isArray(v) && !v.length) out[k] = null;
  return out;
}

export function readFrontMatter(file: string, relative = file): Record<string, FrontMatterValue> {
  return parseFrontMatter(fs.readFileSync(file, 'utf8'), relative);
}
