// data/runs.jsonl: one line when a run session starts and one when it ends, for every arm,
// registered or smoke: the code commit it ran, the machine's load, what it excluded, and which
// other sessions ran beside it. The deviations section of the paper is computed from it.
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { paths, rel, codeRoot } from '../../core/paths.ts';
import { readJsonl, toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import { appendDurable } from './files.ts';
import { stillRunning } from '../../core/proc.ts';

import type { RunLogLine } from '../../core/contracts.ts';

export type { RunLogLine } from '../../core/contracts.ts';

const git = (args: string[]) => execFileSync('git', args, { cwd: codeRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 << 20 }).trim();

/** The code that runs: HEAD, and whether tracked source differs from it (data and outputs aside). */
export function codeState(): { commit: string | null; dirty: boolean } {
  try {
    const commit = git(['rev-parse', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':!data', ':!manifests', ':!analysis/out', ':!figures/out']) !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: false };
  }
}

/** The run log: this root's (or scratch folder's), or the one named. */
export function readRunLog(file = paths.runLog()): RunLogLine[] {
  return fs.existsSync(file) ? readJsonl<RunLogLine>(file, { schema: 'run-log' }) : [];
}

function append(line: RunLogLine): void {
  validate('run-log', line, { file: rel(paths.runLog()) });
  appendDurable(paths.runLog(), toLine(line));
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const machine = () => ({ load: os.loadavg().map(round2) as [number, number, number], pid: process.pid, host: os.hostname() });

/** The session's own process still runs on this machine (not a later process that was given its pid). */
function alive(line: RunLogLine): boolean {
  return !!line.pid && line.host === os.hostname() && stillRunning(line.pid, line.at);
}

/** Sessions that started and have not ended, whose process still runs on this machine. */
export function runningSessions(log = readRunLog()): RunLogLine[] {
  const ended = new Set(log.filter((l) => l.event === 'end').map((l) => l.session));
  return log.filter((l) => l.event === 'start' && !ended.has(l.session) && l.pid !== process.pid && alive(l));
}

export type SessionStart = Pick<RunLogLine, 'run_id' | 'study' | 'arm' | 'browser' | 'file' | 'registered' | 'rows' | 'selection' | 'redo' | 'total' | 'workers' | 'browsers' | 'executable' | 'firefox_path'>;

export function logStart(s: SessionStart): RunLogLine {
  const at = new Date().toISOString();
  const line: RunLogLine = { schema: 'run-log/1', event: 'start', session: `${s.run_id}@${at}`, ...s, at, ...codeState(), ...machine() };
  append(line);
  return line;
}

/** The sessions that ran at the same time as `start` (which ends at `at`): another session started before this one
 *  ended, and ended after this one started. A session with no end line on this machine counts only while its own
 *  process still runs: a run killed hours ago left a start line and nothing else, and did not overlap every run
 *  after it. One with no end line on another machine still counts: whether it runs cannot be seen from here. */
export function overlappingSessions(log: RunLogLine[], start: RunLogLine, at: string): string[] {
  const ended = new Map(log.filter((l) => l.event === 'end').map((l) => [l.session, l.at]));
  return log
    .filter((l) => l.event === 'start' && l.session !== start.session && l.at < at)
    .filter((l) => (ended.has(l.session) ? ended.get(l.session)! > start.at : l.host !== os.hostname() || alive(l)))
    .map((l) => l.session);
}

export function logEnd(start: RunLogLine, end: { rows: number; exit: number; excluded: string[] }): RunLogLine {
  const at = new Date().toISOString();
  const overlapped = overlappingSessions(readRunLog(), start, at);
  const line: RunLogLine = {
    ...start, event: 'end', at, ...codeState(), ...machine(), rows: end.rows, exit: end.exit, excluded: end.excluded, overlapped,
  };
  append(line);
  return line;
}
