// An outside agent's process, as every harness that runs one starts and ends it (process-agent.ts:
// an agent over CDP/BiDi; pipeline/browsergym/episode.ts: a BrowserGym episode):
//   /bin/sh -c "<command>" in its own process group, with the caller's environment minus the
//   harness's own variables (RSTACKBENCH_*, RSTACK_*) plus what the caller gives it; its stderr
//   (and stdout, unless the caller reads it) into the file the caller names. kill() ends the group,
//   so a timeout or the end of a trace ends every child the agent started (a browser, a driver).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** after SIGTERM, how long the group gets before SIGKILL */
export const KILL_GRACE_MS = 2_000;
/** how much of the end of stdout is kept when the caller reads it */
const STDOUT_TAIL_BYTES = 64 * 1024;

export interface AgentExit { code: number | null; signal: NodeJS.Signals | null; spawnError?: Error }

export interface AgentProcess {
  /** resolves once the shell exits (never rejects) */
  exited: Promise<AgentExit>;
  /** the end of its stdout so far ('' when stdout goes to the log) */
  stdout(): string;
  /** resolves once its stdout is closed, or after capMs */
  stdoutClosed(capMs?: number): Promise<void>;
  /** a signal to its whole process group (nothing if it is gone) */
  killGroup(signal: NodeJS.Signals): void;
  /** SIGTERM to the group, SIGKILL after KILL_GRACE_MS unless it exited; resolves with its exit */
  stop(): Promise<AgentExit>;
}

export function startAgentProcess(options: {
  command: string;
  cwd?: string;
  /** added to the inherited environment (the harness's own variables are never inherited) */
  env: Record<string, string>;
  /** where stderr goes (its folder is created); stdout too unless readStdout */
  logFile: string;
  readStdout?: boolean;
}): AgentProcess {
  fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
  const logFd = fs.openSync(options.logFile, 'a');
  // the harness's own variables stay out: the agent sees only what the caller hands it
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RSTACKBENCH_') && !k.startsWith('RSTACK_')));
  const child = spawn('/bin/sh', ['-c', options.command], {
    cwd: options.cwd,
    env: { ...inherited, ...options.env },
    stdio: ['ignore', options.readStdout ? 'pipe' : logFd, logFd],
    detached: true, // its own process group
  });
  fs.closeSync(logFd);
  let stdout = '';
  if (options.readStdout) {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > STDOUT_TAIL_BYTES * 2) stdout = stdout.slice(-STDOUT_TAIL_BYTES);
    });
  }
  const exited = new Promise<AgentExit>((resolve) => {
    child.once('error', (spawnError) => resolve({ code: null, signal: null, spawnError }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone already
    }
  };
  return {
    exited,
    stdout: () => stdout,
    stdoutClosed: (capMs = 1000) =>
      new Promise<void>((resolve) => {
        if (!child.stdout || child.stdout.closed) return resolve();
        const cap = setTimeout(resolve, capMs);
        child.stdout.once('close', () => { clearTimeout(cap); resolve(); });
      }),
    killGroup,
    async stop() {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      const exit = await exited;
      clearTimeout(timer);
      killGroup('SIGKILL'); // what it left running ends with it
      return exit;
    },
  };
}
