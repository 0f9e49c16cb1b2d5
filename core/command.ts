// Running a command to its end, with execa; a failure becomes a CommandError that names the
// command, how it ended and the last lines of its stderr (execa's error kept as its cause).
// The long-lived processes (servers) are core/service.ts's.
import { execa, ExecaError, type Options } from 'execa';
import { CommandError, lastLines } from './errors.ts';

/** `file args…` as a reader would type it (for messages). */
export const commandLine = (file: string, args: readonly string[] = []): string =>
  [file, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' ');

/** How a finished command ended, from execa's or zx's result/error fields. */
export function endedAs(ended: { exitCode?: number | null; signal?: string | null; signalName?: string | null; timedOut?: boolean }): string {
  if (ended.timedOut) return 'timed out';
  const signal = ended.signal ?? ended.signalName;
  if (signal) return `killed by ${signal}`;
  return `exited with code ${ended.exitCode ?? '?'}`;
}

/** Turns what zx or execa threw into a CommandError (anything else is returned as it is). */
export function commandFailed(error: unknown, command: string, hint?: string): unknown {
  if (error instanceof CommandError) return error;
  const e = error as { exitCode?: number | null; signal?: string | null; signalName?: string | null; stderr?: unknown; timedOut?: boolean; code?: string; message?: string };
  if (e && typeof e === 'object' && ('exitCode' in e || 'stderr' in e || 'failed' in e)) {
    // a command that could not be spawned at all (ENOENT) has no exit code: say that instead
    const notFound = e.code === 'ENOENT' || (e.exitCode === undefined && /ENOENT/.test(String(e.message)));
    const ended = notFound ? 'not found (is it installed?)' : endedAs(e);
    return new CommandError(command, ended, lastLines(typeof e.stderr === 'string' ? e.stderr : String(e.stderr ?? '')), { cause: error, hint });
  }
  return error;
}

/** Runs `file args…` to its end and returns its stdout (with `all`: stdout and stderr interleaved); throws a CommandError on any failure. */
export async function runCommand(file: string, args: string[] = [], options: Options & { hint?: string } = {}): Promise<string> {
  const { hint, ...execaOptions } = options;
  try {
    const stdin = execaOptions.input === undefined && execaOptions.inputFile === undefined ? { stdin: 'ignore' as const } : {};
    const result = await execa(file, args, { ...stdin, ...execaOptions });
    return String((execaOptions.all ? result.all : result.stdout) ?? '');
  } catch (error) {
    if (error instanceof ExecaError) throw commandFailed(error, commandLine(file, args), hint);
    throw error;
  }
}

const passedSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const signalNumber: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** Runs the command with stdio inherited; a signal sent to us is passed on, and we wait for it to end. */
export async function runInherited(command: string[], env: Record<string, string> = {}): Promise<number> {
  const child = execa(command[0]!, command.slice(1), { stdio: 'inherit', reject: false, env: { ...process.env, ...env }, cwd: process.cwd() });
  const pass = (s: NodeJS.Signals) => { child.kill(s); };
  for (const s of passedSignals) process.on(s, pass);
  try {
    const result = await child;
    if (result.failed && result.exitCode === undefined && !result.signal) throw commandFailed(result, command.join(' '));
    return result.signal ? 128 + (signalNumber[result.signal] ?? 1) : (result.exitCode ?? 1);
  } finally {
    for (const s of passedSignals) process.off(s, pass);
  }
}
