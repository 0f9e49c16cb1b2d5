// Peak resident memory of this process and everything it started (the browsers and their helpers),
// sampled from /proc: the sum of RSS over the process tree, its highest value between start and stop.
// Processes named in `exclude` (the bench's CPU hog) and their children are not counted.
import fs from 'node:fs';

const PAGE_BYTES = 4096;

function processTable(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the command name may hold spaces and parentheses: the fields after the last ')' are fixed
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(after[1]));
    } catch {
      // the process ended while we read
    }
  }
  return parents;
}

function rssBytes(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** RSS (bytes) of root and its descendants, now. */
export function treeRss(root = process.pid, exclude: ReadonlySet<number> = new Set()): number {
  const parents = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (exclude.has(pid)) continue;
    total += rssBytes(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

export interface RssSampler { stop(): number }

/** Samples treeRss every `everyMs` until stop(), which returns the peak in bytes. */
export function sampleRss(options: { everyMs?: number; exclude?: () => ReadonlySet<number> } = {}): RssSampler {
  let peak = treeRss(process.pid, options.exclude?.());
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(process.pid, options.exclude?.()));
  }, options.everyMs ?? 250);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRss(process.pid, options.exclude?.()));
    },
  };
}
