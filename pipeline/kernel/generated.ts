// A generated input (a task file, the pilot's sample, core/contracts.ts): the same inputs give the
// same bytes. `--check` compares a fresh generation with the file on disk and writes nothing (exit 1
// when they differ); otherwise the file is rewritten when it changed. A file that may be frozen
// already and has no seed to regenerate it from (the evidence tasks) is overwritten only with --force.
import fs from 'node:fs';
import { rel } from '../../core/paths.ts';
import { toLine } from '../../core/jsonl.ts';
import { validate, type SchemaName } from '../../core/validate.ts';
import { UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { writeFileAtomic } from './files.ts';

/** The --check flag every generator takes. */
export const checkOption = { check: { type: 'boolean', default: false, help: 'write nothing; compare with the file on disk and exit 1 if it would change' } } as const;

/** Values as JSONL text, each checked against its schema first. */
export const jsonlOf = (schema: SchemaName, values: readonly unknown[], name: string): string =>
  values.map((v, i) => toLine(validate(schema, v, { file: name, line: i + 1 }))).join('');

/** Writes (or with check, compares) a generated file; `what` says what it holds. Returns the exit code. */
export function writeGenerated(file: string, text: string, options: { what: string; check?: boolean; force?: boolean }): number {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const same = existing === text;
  if (options.check) {
    process.stdout.write(`${rel(file)}: ${same ? 'byte-identical to a fresh generation' : existing === null ? `missing (a fresh generation has ${options.what})` : 'DIFFERS from a fresh generation'}\n`);
    return same ? 0 : 1;
  }
  if (existing !== null && !same && options.force === false) throw new UsageError(messages.generatedDiffers(rel(file)));
  if (!same) writeFileAtomic(file, text);
  process.stdout.write(`${rel(file)}: ${options.what}${same ? ' (unchanged)' : ' (written)'}\n`);
  return 0;
}
