// JSONL: one JSON value a line, each validated against its schema when read.
import fs from 'node:fs';
import { ValidationError } from './errors.ts';
import { validate, type SchemaName } from './validate.ts';
import { rel } from './paths.ts';

export interface ReadOptions { schema?: SchemaName }

/** Reads every line of a JSONL file; a malformed line is an error naming file, line and field. */
export function readJsonl<T = unknown>(file: string, options: ReadOptions = {}): T[] {
  return readJsonlLines<T>(file, options).map((l) => l.value);
}

export function parseJsonl<T = unknown>(text: string, name: string, options: ReadOptions = {}): T[] {
  return parseJsonlLines<T>(text, name, options).map((l) => l.value);
}

/** Each line's value with its text and number (the ledger hashes its lines' text). */
export interface JsonlLine<T> { value: T; text: string; line: number }

export function readJsonlLines<T = unknown>(file: string, options: ReadOptions = {}): JsonlLine<T>[] {
  return parseJsonlLines<T>(fs.readFileSync(file, 'utf8'), rel(file), options);
}

function parseJsonlLines<T>(text: string, name: string, options: ReadOptions): JsonlLine<T>[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, index) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (cause) {
      throw new ValidationError(name, index + 1, '', `is not valid JSON (${(cause as Error).message})`, cause);
    }
    return { value: options.schema ? validate<T>(options.schema, value, { file: name, line: index + 1 }) : (value as T), text: line, line: index + 1 };
  });
}

/** A stable serialisation: keys in insertion order, no spaces, one line. */
export function toLine(value: unknown): string {
  return JSON.stringify(value) + '\n';
}
