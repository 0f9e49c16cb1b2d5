// Every file that crosses a step is checked against its schema in schemas/ (or, for the fault
// proxy's four, proxy/schemas/, which the package ships), on write and on read.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { paths, rel } from './paths.ts';
import { ValidationError } from './errors.ts';
import { schemaFolder as proxySchemas, schemaProblem } from '../proxy/src/validate.ts';

export type SchemaName = 'trace' | 'ledger-entry' | 'prereg' | 'manifest-line' | 'exclusion' | 'task' | (string & {});

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function compiler(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, allowUnionTypes: true, discriminator: true });
    addFormats(ajv);
    for (const folder of [paths.schemas(), proxySchemas]) {
      for (const file of fs.readdirSync(folder)) {
        if (file.endsWith('.schema.json')) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')));
      }
    }
  }
  return ajv;
}

function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    fn = compiler().getSchema(`${name}.schema.json`);
    if (!fn) throw new Error(`no schema ${name}.schema.json in schemas/ or proxy/schemas/`);
    compiled.set(name, fn);
  }
  return fn;
}

/** The field an ajv error is about, as a dotted path ("verdicts.dom.accept", "browser"). */
export const fieldOf = (error: ErrorObject): string => schemaProblem(error).field;

/** What is wrong with the field, in the words every validation message uses. */
export const describeError = (error: ErrorObject): string => schemaProblem(error).detail;

/** Throws a ValidationError naming file, line and field unless value matches the schema. */
export function validate<T>(schema: SchemaName, value: unknown, where: { file: string; line?: number | null }): T {
  const fn = validator(schema);
  if (!fn(value)) {
    const error = fn.errors![0]!;
    throw new ValidationError(where.file, where.line ?? null, fieldOf(error), describeError(error), fn.errors);
  }
  return value as T;
}

/** A JSON file's value, checked against its schema when one is named; malformed JSON is a ValidationError naming the file. */
export function readJsonFile<T>(file: string, schema?: SchemaName): T {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ValidationError(rel(file), null, '', `is not valid JSON (${(cause as Error).message})`, cause);
  }
  return schema ? validate<T>(schema, value, { file: rel(file) }) : (value as T);
}

/** True when value matches; never throws. */
export function isValid(schema: SchemaName, value: unknown): boolean {
  return validator(schema)(value) as boolean;
}
