// The package's own checks: its four files (a fault spec, a layer table, a transport table, an
// event) against the JSON schemas it ships in schemas/, one level above src/ and dist/ alike.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ValidationError } from './errors.ts';

export type ProxySchema = 'fault-spec' | 'fault-layers' | 'fault-transport' | 'proxy-event';

/** The folder of the package's schemas (proxy/schemas/; in the installed package, schemas/ beside dist/). */
export const schemaFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'schemas');

let ajv: Ajv2020 | undefined;
function validator(name: ProxySchema): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true, discriminator: true });
    for (const file of fs.readdirSync(schemaFolder)) {
      if (file.endsWith('.schema.json')) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaFolder, file), 'utf8')));
    }
  }
  const fn = ajv.getSchema(`${name}.schema.json`);
  if (!fn) throw new Error(`the fault proxy ships no schema ${name}.schema.json in ${schemaFolder}`);
  return fn;
}

/** The field an ajv error is about, as a dotted path ("target.selector"), and what is wrong with it, in the words every message uses. */
export function schemaProblem(error: ErrorObject): { field: string; detail: string } {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as { missingProperty?: string; additionalProperty?: string; unevaluatedProperty?: string; allowedValues?: unknown[] };
  const extra = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  const field = extra ? (base ? `${base}.${extra}` : extra) : base;
  const detail = error.keyword === 'required' ? 'is missing'
    : error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties' ? 'is not allowed here'
      : error.keyword === 'enum' ? `must be one of ${JSON.stringify(params.allowedValues)}`
        : error.message ?? 'is invalid';
  return { field, detail };
}

/** The value, if it matches the schema; else a ValidationError naming `where`, the field and what is wrong. */
export function validate<T>(schema: ProxySchema, value: unknown, where: { file: string; line?: number | null }): T {
  const fn = validator(schema);
  if (!fn(value)) {
    const { field, detail } = schemaProblem(fn.errors![0]!);
    throw new ValidationError(where.file, where.line ?? null, field, detail, fn.errors);
  }
  return value as T;
}

/** How a file is named in messages: relative to the working folder when inside it. */
export const shownFile = (file: string): string => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') ? relative : file;
};

/** A JSON file's value, checked against the schema when one is named; malformed JSON is a ValidationError naming the file. */
export function readJsonFile<T>(file: string, schema?: ProxySchema, shown = shownFile(file)): T {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ValidationError(shown, null, '', `is not valid JSON (${(cause as Error).message})`, cause);
  }
  return schema ? validate<T>(schema, value, { file: shown }) : (value as T);
}
