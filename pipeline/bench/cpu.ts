// Where a block's CPU goes, by kind of process, from /proc: the real-applications slice's question is
// which process the cores are spent on (PHP under apache2, mariadbd, the browser, this harness).
//
//   sampleCpu(roots) ─ every everyMs: every process under this one and under `roots()` (the apps'
//   apache2 and mariadbd, started elsewhere perhaps), each put in the group of its nearest
//   ancestor that names one (apache2 → php, mariadbd → mariadb, a browser → browser, a mariadb
//   client → mariadb client) ─▶ stop(): per group, the CPU seconds its processes spent since the
//   start (a process that began in between counts from 0, one that ran already from when it was
//   first seen; what one spent after the last sample before it ended is not seen: at most everyMs of it)
import fs from 'node:fs';
import { processTable, processTree, TICKS_PER_S, type ProcStat } from '../../core/proc.ts';

export type CpuGroup = 'php' | 'mariadb' | 'mariadb client' | 'browser' | 'harness' | 'other';

const comm = (pid: number): string => { try { return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim(); } catch { return ''; } };

/** The group a process's own name puts it in, or null (it takes its parent's). */
export function groupOfName(name: string): CpuGroup | null {
  if (name === 'apache2') return 'php';
  if (name === 'mariadbd' || name === 'mysqld') return 'mariadb';
  if (name === 'mariadb' || name === 'mysql') return 'mariadb client';
  if (/^(chrome|chromium|headless_shell|firefox|firefox-esr|Web Content|WebExtensions|Isolated Web Co|Privileged Cont|RDD Process|Socket Process|Utility Process|GPU Process|forkserver)/.test(name)) return 'browser';
  return null;
}

export interface CpuSampler { stop(): Record<CpuGroup, number> }

/** Samples the CPU of this process's tree and of `roots()`'s trees every `everyMs` until stop(). */
export function sampleCpu(options: { roots?: () => number[]; everyMs?: number } = {}): CpuSampler {
  const first = new Map<number, number>();
  const last = new Map<number, { ticks: number; group: CpuGroup }>();
  const names = new Map<number, string>();
  const startedMs = Date.now();
  const sample = (initial: boolean) => {
    const table = processTable();
    const byPid = new Map(table.map((s) => [s.pid, s]));
    const seen = new Map<number, ProcStat>();
    for (const root of [process.pid, ...(options.roots?.() ?? [])]) for (const s of processTree(root, table)) seen.set(s.pid, s);
    const groupOf = (s: ProcStat): CpuGroup => {
      for (let p: ProcStat | undefined = s; p; p = byPid.get(p.ppid)) {
        if (p.pid === process.pid) return 'harness';
        if (!names.has(p.pid)) names.set(p.pid, comm(p.pid));
        const g = groupOfName(names.get(p.pid)!);
        if (g) return g;
      }
      return 'other';
    };
    for (const s of seen.values()) {
      // this process's own CPU only: its reaped children are counted where they were seen alive
      // one first seen later counts from 0 only if it began since the start (to /proc's second):
      // a running mariadbd the block only now learns of counts from now, not from its own start
      if (initial) first.set(s.pid, s.ticks);
      else if (!first.has(s.pid)) first.set(s.pid, s.startedAtMs >= startedMs - 1000 ? 0 : s.ticks);
      last.set(s.pid, { ticks: s.ticks, group: groupOf(s) });
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), options.everyMs ?? 250);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample(false);
      const out: Record<CpuGroup, number> = { php: 0, mariadb: 0, 'mariadb client': 0, browser: 0, harness: 0, other: 0 };
      for (const [pid, l] of last) out[l.group] += Math.max(0, l.ticks - (first.get(pid) ?? 0)) / TICKS_PER_S;
      return out;
    },
  };
}
