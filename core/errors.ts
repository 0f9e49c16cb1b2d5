// Typed errors that keep their cause and carry the exit code the CLI uses.
// 1: a check failed (verify), 2: bad input (a malformed file, a bad flag), 3: the freeze gate refused.
// The base, and the two errors every command uses, are the fault proxy package's (proxy/src/errors.ts),
// which the harness uses like any package: one hierarchy for the proxy's errors and ours.
export { RStackError, ValidationError, UsageError } from '../proxy/src/errors.ts';
import { RStackError } from '../proxy/src/errors.ts';

/** The freeze gate refused a run: the tree differs from the ledger head, or nothing is frozen. */
export class GateError extends RStackError {
  constructor(message: string, readonly changed: string[] = []) {
    super(message, { exitCode: 3 });
  }
}

/** The first line of what was thrown: what a row's error field and a one-line message keep. */
export const firstLine = (error: unknown): string => ((error as Error)?.message ?? String(error)).split('\n')[0]!;

/** What the system said of a failed write, in words: ENOSPC is "no space left on device". */
const writeReasons: Record<string, string> = {
  ENOSPC: 'no space left on device', EDQUOT: 'disk quota exceeded', EROFS: 'read-only file system', EIO: 'input/output error', EFBIG: 'file too large', EACCES: 'permission denied',
};

/** A write to a file that failed (a full disk, a quota, a read-only mount): the file, the reason; the system's error kept as cause. */
export class WriteError extends RStackError {
  readonly code: string | undefined;
  readonly reason: string;
  constructor(readonly file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const reason = (code && writeReasons[code]) ?? firstLine(cause);
    super(`could not write ${file}: ${reason}${code ? ` (${code})` : ''}`, { exitCode: 1, cause });
    this.code = code;
    this.reason = reason;
  }
}

export class CheckError extends RStackError {
  constructor(message: string, readonly failures: string[] = []) {
    super(message, { exitCode: 1 });
  }
}

/** The last `count` non-empty lines of a command's output: what an error message quotes of it. */
export function lastLines(text: string | undefined, count = 8): string {
  return (text ?? '').split('\n').map((l) => l.trimEnd()).filter(Boolean).slice(-count).join('\n');
}

/**
 * A command that failed (zx's and execa's errors, kept as cause): names the command, how it ended,
 * and the last lines of its stderr, so that a failure says what broke without a second look.
 */
export class CommandError extends RStackError {
  constructor(
    readonly command: string,
    readonly ended: string,
    readonly stderrTail: string,
    options: { exitCode?: number; cause?: unknown; hint?: string } = {},
  ) {
    super(`${command}: ${ended}${stderrTail ? `; the last lines of its stderr:\n${stderrTail.replace(/^/gm, '  ')}` : ''}${options.hint ? `\n${options.hint}` : ''}`,
      { exitCode: options.exitCode ?? 1, cause: options.cause });
  }
}

/** A server that would not start, answer or stop; `lastSeen` is what was observed last (a log's tail, a status). */
export class ServiceError extends RStackError {
  constructor(readonly service: string, message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(`${service}: ${message}`, { exitCode: options.exitCode ?? 1, cause: options.cause });
  }
}
