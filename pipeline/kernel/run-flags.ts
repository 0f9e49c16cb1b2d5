// The flags every run target shares, declared once with their --help lines, and how they become the
// skeleton's RunFlags (run.ts). An arm spreads the ones it takes beside its own.
import { intOption } from '../../core/cli.ts';
import type { RunFlags } from './run.ts';

/** `unit`: what the arm runs one at a time and shards (condition, trial, unit). */
export const runOptions = (unit: string) => ({
  smoke: { type: 'boolean', default: false, help: 'a development run: rows go to data/excluded/ (your own agent or app: runs/<verb>-<name>/, git-ignored), never registered; repeating the command resumes it' },
  workers: { type: 'string', default: '1', help: `${unit}s at once, each in its own browser context (registered runs use 1: timing, not outcomes, depends on it)` },
  browsers: { type: 'string', default: '1', help: 'browser processes the workers are spread over (Firefox: one process does every context\'s BiDi work on one thread)' },
  only: { type: 'string', help: 'a regular expression over condition ids (only with --smoke; a slice may leave some checks unexercised)' },
  redo: { type: 'string', help: 'REASON: move the registered run aside to data/excluded/ with this reason and run again; repeating the same command after a stop resumes the redo' },
  shard: { type: 'string', help: `i/n: run every n-th ${unit} starting at the i-th (one machine of n); make merge joins the shards` },
}) as const;

export const runFlags = (values: { smoke?: boolean; workers?: string; browsers?: string; only?: string; redo?: string; shard?: string }): RunFlags => ({
  smoke: values.smoke ?? false,
  workers: intOption(values.workers, 'workers', 1),
  browsers: intOption(values.browsers, 'browsers', 1),
  only: values.only,
  redo: values.redo,
  shard: values.shard,
});
