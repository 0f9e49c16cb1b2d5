// The front matter of a preregistration: the YAML block between --- fences at the top of its
// Markdown (read with the `yaml` package). YAML's failsafe schema reads every scalar as text, so
// `version: 1.10` stays "1.10"; an empty value, null or ~ is null. Lists (`promises:`) are lists.
import fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ValidationError } from './errors.ts';

export type FrontMatterValue = string | null | FrontMatterValue[] | { [key: string]: FrontMatterValue };

function nulls(v: unknown): FrontMatterValue {
  if (typeof v === 'string') return v === '' || v === 'null' || v === '~' ? null : v;
  if (Array.isArray(v)) return v.map(nulls);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nulls(x)]));
  return null;
}

/** The front matter of a Markdown text; `file` names it in errors. */
export function parseFrontMatter(text: string, file: string): Record<string, FrontMatterValue> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new ValidationError(file, 1, '', 'has no front matter (--- id, study, arm, version, supersedes ---)');
  let parsed: unknown;
  try {
    parsed = parseYaml(m[1]!, { schema: 'failsafe', prettyErrors: false });
  } catch (cause) {
    const line = (cause as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new ValidationError(file, line ? line + 1 : 2, '', `front matter is not YAML: ${(cause as Error).message.split('\n')[0]}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError(file, 2, '', 'front matter is not a list of "key: value" lines');
  return nulls(parsed) as Record<string, FrontMatterValue>;
}

export function readFrontMatter(file: string, relative = file): Record<string, FrontMatterValue> {
  return parseFrontMatter(fs.readFileSync(file, 'utf8'), relative);
}
