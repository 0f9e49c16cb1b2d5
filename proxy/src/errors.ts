// The package's errors. Each carries the exit code its command line ends with (1: the proxy or the
// app failed; 2: bad input), so that a program that runs the proxy maps them without knowing the
// classes. RStackBench's harness builds its own errors on these three (core/errors.ts re-exports
// them): one hierarchy, whichever side threw.

/** Any error of an RStackBench tool: its message, its cause, the exit code its command line uses. */
export class RStackError extends Error {
  readonly exitCode: number;
  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A spec, table or condition that does not match its schema or its rules: names the file, line and field. */
export class ValidationError extends RStackError {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string,
    detail: string,
    cause?: unknown,
  ) {
    super(`${file}${line !== null ? `:${line}` : ''}: field ${field || '(root)'} ${detail}`, { exitCode: 2, cause });
  }
}

/** A command line the proxy's CLI cannot run: an unknown option, a missing file, a name no table has. */
export class UsageError extends RStackError {
  constructor(message: string, cause?: unknown) {
    super(message, { exitCode: 2, cause });
  }
}

/**
 * The proxy failed a condition: a fault it could not apply or its server gone (reason `proxy`), or
 * the app behind it not answering (`app`). For a harness, an infrastructure failure: the condition
 * ends as one (kept and retried), never as the agent's outcome.
 */
export class ProxyError extends RStackError {
  constructor(readonly reason: 'proxy' | 'app', message: string, options: { cause?: unknown } = {}) {
    super(`fault proxy: ${message}`, { exitCode: 1, cause: options.cause });
  }
}
