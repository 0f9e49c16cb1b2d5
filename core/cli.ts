// The shape every command shares: --help, parsed flags, typed errors mapped to exit codes.
import { parseArgs } from 'node:util';
import { RStackError, UsageError } from './errors.ts';
import { log } from './log.ts';
import { messages } from './messages.ts';

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

/**
 * What parseArgs refused, in our words: the flag, the verb (bin/rstackbench passes it as RSTACK_VERB,
 * and RSTACK_MAKE_TARGET when a Make target of that name exists), and the command that lists its options.
 */
function optionProblem<O extends Options>(error: Error & { code?: string }, argv: string[], cmd: Command<O>): string {
  const known = new Set(Object.keys(cmd.options ?? {}));
  const flagOf = (a: string) => a.replace(/^--?/, '').split('=')[0]!;
  let problem: string;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const bad = argv.find((a) => a.startsWith('-') && a !== '--' && !known.has(flagOf(a)));
    problem = `unknown option ${bad ? bad.split('=')[0] : '(see the list)'}`;
  } else if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /'--?([\w-]+)/.exec(error.message)?.[1];
    const spec = name ? cmd.options?.[name] : undefined;
    problem = spec?.type === 'boolean' ? `--${name} takes no value` : `--${name ?? '?'} needs a value`;
  } else if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    problem = 'unexpected argument';
  } else {
    problem = error.message;
  }
  const verb = process.env.RSTACK_VERB || cmd.name.replace(/^(make|rstackbench) /, '');
  return messages.cli.badOption(problem, verb, process.env.RSTACK_VERB ? (process.env.RSTACK_MAKE_TARGET || null) : null);
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
      throw new UsageError(optionProblem(cause as Error & { code?: string }, argv, cmd), cause);
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

/** A wrapper's argv (rstackbench with-sites, under-load): its own flags, and the command after `--` (none: []). */
export function splitAtDash(argv: string[] = process.argv.slice(2)): { own: string[]; command: string[] } {
  const dash = argv.indexOf('--');
  return dash >= 0 ? { own: argv.slice(0, dash), command: argv.slice(dash + 1) } : { own: argv, command: [] };
}
