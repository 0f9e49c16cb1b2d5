// Runs a command as a user would, and collects what it printed and how it ended.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Ended { exitCode: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Starts `command args…`; `ended` resolves when it exits (never rejects on a failure exit). */
export function start(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): { child: ChildProcess; ended: Promise<Ended> } {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr }));
  });
  return { child, ended };
}

export const run = (command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => start(command, args, options).ended;
