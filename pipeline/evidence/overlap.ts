// How many rows a registered evidence run may have at once: each arm's (or Arm B sample's) cap is
// set by the amendment that allowed it, and rows that must each have a browser process of their
// own (Firefox: several rows in one process hung it) need that many processes. Both refusals come
// before anything runs; a smoke run may take more. Used by matrix.ts (controlled, Arm A) and
// arm-b/run-arm-b.ts (Arm B).
import { UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';

export interface Overlap {
  /** the most rows at once */
  most: number;
  /** the most rows at once in one browser process (null: no bound) */
  perBrowser: number | null;
  /** the prereg that says so */
  source: string;
}

/** The browser processes that many rows at once need. */
export const browsersFor = (overlap: Overlap, workers: number) => (overlap.perBrowser === null ? 1 : Math.ceil(workers / overlap.perBrowser));

/** Refuses (exit 2) a registered run that asks for more rows at once than its amendment allows, or for more than its processes may hold. */
export function checkOverlap(label: string, overlap: Overlap, run: { workers: number; browsers?: number; smoke: boolean }): void {
  if (run.smoke) return;
  const browsers = run.browsers ?? 1;
  if (run.workers > overlap.most) throw new UsageError(messages.evidenceWorkersCap(label, run.workers, overlap.most, overlap.source));
  if (overlap.perBrowser !== null && run.workers > overlap.perBrowser * browsers) {
    throw new UsageError(messages.evidenceRowsPerBrowser(label, run.workers, browsers, overlap.perBrowser, overlap.source));
  }
}
