// A fault spec (proxy/schemas/fault-spec.schema.json), checked before anything starts: the schema (ajv),
// then what a schema cannot say — every regex compiles, every template names a known source. A
// malformed spec is a ValidationError naming the file and the field (exit 2 from a command).
//
//   file or value ─▶ JSON ─▶ ajv (fault-spec) ─▶ regexes compiled ─▶ templates parsed ─▶ CompiledSpec
import { ValidationError } from './errors.ts';
import { readJsonFile, shownFile, validate } from './validate.ts';
import type { FaultSpec } from './contracts.ts';
import { parseTemplate, type Template } from './template.ts';

export type { FaultSpec };

/** A spec with its regexes compiled and its templates parsed: what the proxy's matchers use. */
export interface CompiledSpec {
  spec: FaultSpec;
  pages: RegExp;
  write: { method: string; path: RegExp; form: [string, RegExp][]; json: [string, RegExp][] };
  /** every template of `success`, by the field it came from ("success.location", "success.overlay.title") */
  templates: Map<string, Template>;
}

function regex(where: string, field: string, source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (cause) {
    throw new ValidationError(where, null, field, `is not a valid regular expression (${(cause as Error).message})`, cause);
  }
}

function template(where: string, field: string, text: string, templates: Map<string, Template>): void {
  try {
    templates.set(field, parseTemplate(text));
  } catch (cause) {
    throw new ValidationError(where, null, field, (cause as Error).message, cause);
  }
}

/** Checks a spec value (schema, regexes, templates); `where` names it in messages (a file, "the spec"). */
export function compileSpec(value: unknown, where = 'the fault spec'): CompiledSpec {
  const spec = validate<FaultSpec>('fault-spec', value, { file: where });
  const fields = (group: 'form' | 'json') =>
    Object.entries(spec.write[group] ?? {}).map(([name, source]): [string, RegExp] => [name, regex(where, `write.${group}.${name}`, source)]);
  if (spec.write.form && spec.write.json) throw new ValidationError(where, null, 'write.json', 'is not allowed beside write.form (a body is a form or JSON)');
  const templates = new Map<string, Template>();
  const success = spec.success;
  if (success.kind === 'redirect') template(where, 'success.location', success.location, templates);
  if (success.kind === 'reply') template(where, 'success.body', success.body, templates);
  if (success.kind === 'json-echo') {
    for (const [path, text] of Object.entries(success.overlay)) template(where, `success.overlay.${path}`, text, templates);
    for (const [name, text] of Object.entries(success.query ?? {})) template(where, `success.query.${name}`, text, templates);
  }
  if (success.kind !== 'json-echo') for (const [name, text] of Object.entries(success.headers ?? {})) template(where, `success.headers.${name}`, text, templates);
  (success.cookies ?? []).forEach((text, i) => template(where, `success.cookies.${i}`, text, templates));
  return {
    spec,
    pages: regex(where, 'pages', spec.pages),
    write: { method: spec.write.method, path: regex(where, 'write.path', spec.write.path), form: fields('form'), json: fields('json') },
    templates,
  };
}

/** Reads and checks a spec file. */
export function readFaultSpec(file: string): CompiledSpec {
  return compileSpec(readJsonFile<unknown>(file), shownFile(file));
}
