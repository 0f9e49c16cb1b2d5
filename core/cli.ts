// The shape every command shares: --help, parsed flags, typed errors mapped to exit codes.
import { parseArgs } from 'node:util';
import { RStackError, UsageError } from './errors.ts';
import { log } from './log.ts';

/** One flag: its parseArgs type (and default), and the line --help shows for it. */
export type Option = ({ type: 'string'; default?: string } | { type: 'boolean'; default?: boolean }) & { help: string };
type Options = Record<string, Option>;
export type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values'];

export interface Command<O extends Options> {
  name: string;
  summary: string;
  usage?: string;
  /** every flag once: how it parses and what --help says of it (none: only --help) */
  options?: O;
  run(values: Values<O>, positionals: string[]): Promise<number | void>;
}

function helpText<O extends Options>(cmd: Command<O>): string {
  const lines = [`${cmd.name}: ${cmd.summary}`, '', `usage: ${cmd.usage ?? cmd.name + ' [options]'}`, '', 'options:'];
  for (const [key, spec] of Object.entries(cmd.options ?? {})) {
    const flag = `--${key}${spec.type === 'string' ? ' VALUE' : ''}`;
    const def = spec.default !== undefined ? ` (default: ${String(spec.default)})` : '';
    lines.push(`  ${flag.padEnd(22)} ${spec.help}${def}`);
  }
  lines.push(`  ${'--help'.padEnd(22)} show this help`);
  return lines.join('\n');
}

/** Runs a command as a process: parses argv, prints help, maps errors to exit codes. */
export async function main<O extends Options = Record<never, Option>>(cmd: Command<O>, argv = process.argv.slice(2)): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText(cmd) + '\n');
    return;
  }
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: cmd.options ?? ({} as O), allowPositionals: true, strict: true });
    } catch (cause) {
      throw new UsageError(`${(cause as Error).message}\nsee: ${cmd.name} --help`, cause);
    }
    const code = await cmd.run(parsed.values, parsed.positionals);
    process.exitCode = code ?? 0;
  } catch (error) {
    if (error instanceof RStackError) {
      log({ kind: 'error', message: error.message });
      process.exitCode = error.exitCode;
    } else {
      log({ kind: 'error', message: (error as Error)?.stack ?? String(error) });
      process.exitCode = 1;
    }
  }
}

export function intOption(value: string | undefined, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number of at least ${min}, not ${JSON.stringify(value)}`);
  return n;
}
