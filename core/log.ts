// One logger; its entries are a union keyed on kind (zx's lesson). Human lines go to stderr,
// so that stdout carries only what a command is asked to print (a row, a summary, OK).
export type LogEntry =
  | { kind: 'info'; message: string }
  | { kind: 'warn'; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'progress'; label: string; done: number; total: number; startedMs: number; nowMs: number; failed?: number };

/** "59 s", "16 min 25 s", "1 h 02 min": the progress line's time left and the timings table's columns. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : m ? `${m} min ${String(sec).padStart(2, '0')} s` : `${sec} s`;
}

export function formatProgress(e: Extract<LogEntry, { kind: 'progress' }>): string {
  const elapsed = e.nowMs - e.startedMs;
  const rate = e.done > 0 ? e.done / (elapsed / 1000) : 0;
  const left = rate > 0 ? ((e.total - e.done) / rate) * 1000 : Infinity;
  return `${e.label}: ${e.done}/${e.total} (${rate.toFixed(2)}/s, ${formatDuration(left)} left${e.failed ? `, ${e.failed} failed attempt${e.failed === 1 ? '' : 's'}` : ''})`;
}

let quiet = false;
export function setQuiet(value: boolean) { quiet = value; }

export function log(entry: LogEntry): void {
  switch (entry.kind) {
    case 'info': if (!quiet) process.stderr.write(`${entry.message}\n`); break;
    case 'warn': process.stderr.write(`warning: ${entry.message}\n`); break;
    case 'error': process.stderr.write(`error: ${entry.message}\n`); break;
    case 'progress':
      if (quiet) break;
      // a rewritten line on a terminal; one line per update in CI logs
      if (process.stderr.isTTY) process.stderr.write(`\r${formatProgress(entry)}\x1b[K${entry.done === entry.total ? '\n' : ''}`);
      else process.stderr.write(`${formatProgress(entry)}\n`);
      break;
  }
}
