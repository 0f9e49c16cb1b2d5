// Linux's process table, read from /proc: one parser of /proc/<pid>/stat and one walk of a process
// tree, for the services (core/service.ts: is a pid alive, who owns a socket) and the bench (peak
// memory, pipeline/bench/memory.ts; Firefox's CPU, pipeline/bench/firefox-cost.ts).
import fs from 'node:fs';

export interface ProcStat {
  pid: number;
  /** one letter: R running, S sleeping, Z zombie … */
  state: string;
  ppid: number;
  /** utime + stime, in clock ticks (USER_HZ) */
  ticks: number;
  /** cutime + cstime: the CPU of its children that ended and were waited for, in clock ticks */
  childTicks: number;
  /** when it started, in ms since the epoch (to the second: the boot time is kept in whole seconds) */
  startedAtMs: number;
}

/** Clock ticks per second of the times in /proc (USER_HZ, what `getconf CLK_TCK` prints: 100 on Linux). */
export const TICKS_PER_S = 100;

let bootMs: number | null = null;
/** When this machine booted, ms since the epoch (/proc/stat's btime). */
function bootTimeMs(): number {
  if (bootMs === null) {
    const line = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    if (!line) throw new Error('/proc/stat has no btime line');
    bootMs = Number(line[1]) * 1000;
  }
  return bootMs;
}

/** /proc/<pid>/stat, or null when no such process is there (it may end while we read). */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try { text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return null; }
  // the command name may hold spaces and parentheses: the fields after the last ')' are fixed,
  // state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14) … starttime(19, ticks after boot)
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid, state: f[0]!, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), childTicks: Number(f[13]) + Number(f[14]),
    startedAtMs: bootTimeMs() + (Number(f[19]) * 1000) / TICKS_PER_S,
  };
}

/**
 * Whether the process that wrote a record at `atIso` (its pid beside it) still runs here: a process
 * with that pid runs and started no later than the record (pids are reused, and after a wrap-around a
 * stranger may hold a dead run's pid; a second of slack, the boot time being whole seconds).
 */
export function stillRunning(pid: number, atIso: string): boolean {
  const s = procStat(pid);
  return s !== null && s.state !== 'Z' && s.startedAtMs <= Date.parse(atIso) + 1000;
}

/** Every process this user can see, now. */
export function processTable(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = procStat(Number(entry));
    if (s) out.push(s);
  }
  return out;
}

/** `root` and every process under it (none when root is gone); a process in `exclude` is left out with its children. */
export function processTree(root: number, table: ProcStat[] = processTable(), exclude: ReadonlySet<number> = new Set()): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const s of table) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const rootStat = table.find((s) => s.pid === root);
  if (!rootStat || exclude.has(root)) return [];
  const out: ProcStat[] = [];
  const stack = [rootStat];
  while (stack.length) {
    const s = stack.pop()!;
    out.push(s);
    for (const c of children.get(s.pid) ?? []) if (!exclude.has(c.pid)) stack.push(c);
  }
  return out;
}
