// A server the pipeline starts, watches and stops: MariaDB and Apache for Arm B's sites, and any
// later one (a model server). One shape for all of them:
//
//   state folder (the project's own) ─▶ port free? (else: who holds it) ─▶ spawn detached (execa)
//   writing its own log file, its pid in a pid file ─▶ wait until ready (bounded; fails
//   fast when the process exits, quoting its log) ─▶ … ─▶ stop: by the pid file only, TERM, wait
//   (KILL after the grace time), remove the pid file
//
// A process counts as this service's only when its pid file names a live process whose
// /proc/<pid>/comm is the service's command: a stale pid file (a reboot, a kill -9) never makes
// us signal a stranger. Linux only (/proc), as the machines this runs on are.
import fs from 'node:fs';
import { procStat } from './proc.ts';
import net from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { ServiceError, lastLines } from './errors.ts';
import { commandLine } from './command.ts';

export interface Service {
  /** what messages call it, e.g. "production-site: mariadbd" */
  name: string;
  /** the executable's name as /proc/<pid>/comm shows it (at most 15 characters) */
  comm: string;
  pidFile: string;
  /** the log the server writes (its messages quote its last lines) */
  logFile: string;
}

/** The pid a pid file holds, or null (missing, empty, not a number). */
export function readPid(pidFile: string): number | null {
  let text: string;
  try { text = fs.readFileSync(pidFile, 'utf8').trim(); } catch { return null; }
  return /^\d+$/.test(text) ? Number(text) : null;
}

/** /proc/<pid>/comm, or null when no such process runs (a zombie counts as gone). */
export function processName(pid: number): string | null {
  const stat = procStat(pid);
  if (!stat) return null;
  try {
    // a zombie is gone, but a thread-group leader that exited first shows Z while its other threads
    // still run and hold its sockets: it is gone only when it is the last of its threads
    if (stat.state === 'Z' && fs.readdirSync(`/proc/${pid}/task`).length <= 1) return null;
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

/** A process's command line, for messages ("" when it cannot be read). */
export function processCommandLine(pid: number): string {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '); } catch { return ''; }
}

/** The pid of the service's running process, by its pid file, or null. */
export function runningPid(service: Pick<Service, 'pidFile' | 'comm'>): number | null {
  const pid = readPid(service.pidFile);
  return pid !== null && processName(pid) === service.comm ? pid : null;
}

export interface Listener { address: string; port: number; inode: number; pid: number | null; holders: number[] }

/** IPv4 and IPv6 addresses as /proc/net/tcp{,6} spell them (little-endian hex words). */
function decodeAddress(hex: string): string {
  if (hex.length === 8) return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().join(''));
  const full = words.join('').match(/.{4}/g)!.map((g) => g.replace(/^0+(?=.)/, ''));
  const text = full.join(':');
  if (text === '0:0:0:0:0:ffff:' + full.slice(6).join(':')) {
    const v4 = words[3]!;
    return `::ffff:${[0, 1, 2, 3].map((i) => parseInt(v4.slice(i * 2, i * 2 + 2), 16)).join('.')}`;
  }
  return text === '0:0:0:0:0:0:0:0' ? '::' : text === '0:0:0:0:0:0:0:1' ? '::1' : text;
}

/** Every process holding each socket inode (a forking server's workers inherit its listening socket; only the processes this user may look into). */
function socketHolders(): Map<number, number[]> {
  const holders = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try { fds = fs.readdirSync(`/proc/${entry}/fd`); } catch { continue; }
    for (const fd of fds) {
      let target: string;
      try { target = fs.readlinkSync(`/proc/${entry}/fd/${fd}`); } catch { continue; }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (!m) continue;
      const list = holders.get(Number(m[1])) ?? [];
      if (!list.includes(Number(entry))) list.push(Number(entry));
      holders.set(Number(m[1]), list);
    }
  }
  return holders;
}

/** The parent pid of a process, or null when it is gone. */
export function parentPid(pid: number): number | null {
  return procStat(pid)?.ppid ?? null;
}

/**
 * Which of a socket's holders owns it: the one whose parent does not hold it too (Apache's parent,
 * not a worker that inherited the socket). Not the lowest pid: once pids wrap around (pid_max is
 * 32768 on many machines), a worker can have a lower pid than the parent that forked it.
 */
export function socketOwner(holders: readonly number[], parentOf: (pid: number) => number | null = parentPid): number | null {
  if (!holders.length) return null;
  const held = new Set(holders);
  const tops = holders.filter((pid) => { const p = parentOf(pid); return p === null || !held.has(p); });
  return (tops.length ? tops : holders).reduce((a, b) => Math.min(a, b));
}

/** Every listening TCP socket of the machine, with the process holding it where visible (see socketOwner) and every process sharing it. */
export function tcpListeners(): Listener[] {
  const found: Omit<Listener, 'pid' | 'holders'>[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try { text = fs.readFileSync(file, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
      const [addr, port] = f[1]!.split(':');
      found.push({ address: decodeAddress(addr!), port: parseInt(port!, 16), inode: Number(f[9]) });
    }
  }
  const holders = found.length ? socketHolders() : new Map<number, number[]>();
  return found.map((l) => { const h = holders.get(l.inode) ?? []; return { ...l, pid: socketOwner(h), holders: h }; });
}

/** Whether 127.0.0.1:port can be listened on now (nothing holds it). */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Who listens on a port, as a message names it: "node (pid 123: node server.js)". */
export function portHolder(port: number): string {
  const holders = tcpListeners().filter((l) => l.port === port);
  const withPid = holders.find((l) => l.pid !== null);
  if (!withPid) return holders.length ? `a process this user cannot see (listening on ${holders[0]!.address})` : 'another process (no listener found in /proc/net/tcp)';
  const pid = withPid.pid!;
  const cmd = processCommandLine(pid);
  return `${processName(pid) ?? '?'} (pid ${pid}${cmd ? `: ${cmd.length > 120 ? cmd.slice(0, 117) + '...' : cmd}` : ''})`;
}

/** Throws a ServiceError naming the port and who holds it, unless host:port is free. */
export async function assertPortFree(name: string, port: number, hint: string, host = '127.0.0.1'): Promise<void> {
  if (await portFree(port, host)) return;
  throw new ServiceError(name, `${host}:${port} is already taken by ${portHolder(port)}; ${hint}`, { exitCode: 2 });
}

/** The last lines of a log file (for a message), or "" when it is missing. */
export function logTail(file: string, count = 8): string {
  try { return lastLines(fs.readFileSync(file, 'utf8'), count); } catch { return ''; }
}

export interface Started {
  pid: number;
  /** null while it runs; how it ended once it has exited */
  exited: () => string | null;
}

/**
 * Spawns `file args…` in its own session (it outlives us, like `setsid cmd </dev/null >/dev/null &`),
 * with no stdio: a server writes its own log (service.logFile, passed in its arguments), since a
 * pipe to us would die with us. With `writePid`, the pid file is written here (for servers that
 * write none themselves); either way the pid is returned.
 */
export function spawnDetached(service: Service, file: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; writePid?: boolean } = {}): Started {
  fs.mkdirSync(path.dirname(service.logFile), { recursive: true });
  let ended: string | null = null;
  const child = execa(file, args, {
    detached: true, cleanup: false, buffer: false, reject: false, stdio: 'ignore',
    env: options.env ?? process.env, cwd: options.cwd ?? process.cwd(),
  });
  if (child.pid === undefined) throw new ServiceError(service.name, `could not start ${commandLine(file, args)}`);
  // the result promise never rejects (reject: false): it only tells a wait that the process is gone
  void child.then((r) => { ended = r.failed && r.signal ? `killed by ${r.signal}` : `exited with code ${r.exitCode ?? '?'}`; });
  child.unref();
  if (options.writePid) fs.writeFileSync(service.pidFile, `${child.pid}\n`);
  return { pid: child.pid, exited: () => ended };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `ready()` holds, checking every `intervalMs`, for at most `timeoutMs`. Fails at once
 * when the process it waits for has exited, and on the timeout, quoting what it saw last.
 */
export async function waitUntilReady(name: string, what: string, ready: () => Promise<boolean> | boolean, options: { timeoutMs: number; intervalMs?: number; exited?: () => string | null; lastSeen?: () => string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const seen = () => { const s = options.lastSeen?.() ?? ''; return s ? `; last seen:\n${s.replace(/^/gm, '  ')}` : ''; };
  for (;;) {
    if (await ready()) return;
    const exited = options.exited?.();
    if (exited) throw new ServiceError(name, `${exited} before ${what}${seen()}`);
    if (Date.now() >= deadline) throw new ServiceError(name, `not ${what} within ${options.timeoutMs >= 1000 ? `${Math.round(options.timeoutMs / 1000)} s` : `${options.timeoutMs} ms`}${seen()}`);
    await sleep(options.intervalMs ?? 200);
  }
}

/** Waits until no process with this pid runs; true when it is gone within the time. */
async function gone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processName(pid) !== null) {
    if (Date.now() >= deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Stops the service's process, found by its pid file only: TERM, then KILL after `graceMs`.
 * Returns the pid it stopped, or null when nothing of it ran (a stale pid file is removed).
 */
export async function stopService(service: Service, options: { graceMs?: number } = {}): Promise<number | null> {
  const pid = runningPid(service);
  if (pid === null) {
    fs.rmSync(service.pidFile, { force: true });
    return null;
  }
  process.kill(pid, 'SIGTERM');
  if (!(await gone(pid, options.graceMs ?? 20_000))) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone just now */ }
    if (!(await gone(pid, 5_000))) throw new ServiceError(service.name, `pid ${pid} did not stop on TERM nor on KILL; see ${service.logFile}`);
  }
  fs.rmSync(service.pidFile, { force: true });
  return pid;
}

/** A folder of the project's own for a service's state. */
export function ensureStateFolder(dir: string, mode = 0o755): string {
  fs.mkdirSync(dir, { recursive: true, mode });
  return dir;
}
