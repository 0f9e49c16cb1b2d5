// The load trial's CPU hog: one busy-looping child process per core, bounded in time. Started and
// stopped by the bench; killed on every exit path of the bench (normal end, error, SIGINT, SIGTERM),
// and each child also ends by itself at its deadline or as soon as the bench is gone (its parent
// pid changes), so that not even a SIGKILL of the bench leaves it spinning.
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';

export interface CpuHog {
  readonly pids: ReadonlySet<number>;
  stop(): void;
}

const childCode = (deadlineMs: number, parent: number) => `
const deadline = Date.now() + ${deadlineMs};
let x = 0;
while (Date.now() < deadline) {
  for (let i = 0; i < 1e6; i++) x = (x + i * 7) % 1000003;
  if (process.ppid !== ${parent}) break;
}
`;

export function startCpuHog(options: { processes?: number; maxSeconds: number }): CpuHog {
  const n = options.processes ?? os.cpus().length;
  const children: ChildProcess[] = [];
  for (let i = 0; i < n; i++) {
    children.push(spawn(process.execPath, ['-e', childCode(options.maxSeconds * 1000, process.pid)], { stdio: 'ignore' }));
  }
  const pids = new Set(children.map((c) => c.pid!).filter(Boolean));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    process.off('exit', stop);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.kill(process.pid, signal);
  };
  process.on('exit', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { pids, stop };
}
