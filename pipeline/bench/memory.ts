// Peak resident memory of this process and everything it started (the browsers and their helpers),
// sampled from /proc: the sum of RSS over the process tree, its highest value between start and stop.
// Processes named in `exclude` (the bench's CPU hog) and their children are not counted.
import fs from 'node:fs';
import { processTable, processTree } from '../../core/proc.ts';

const PAGE_BYTES = 4096;

function rssBytes(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** RSS (bytes) of root and its descendants, now. */
export function treeRss(root = process.pid, exclude: ReadonlySet<number> = new Set()): number {
  return processTree(root, processTable(), exclude).reduce((total, s) => total + rssBytes(s.pid), 0);
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
