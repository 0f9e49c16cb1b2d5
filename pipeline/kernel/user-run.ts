// Where a run of a user's own agent or app writes when it is not registered (a --smoke run of
// run-agent, run-browsergym or run-agentlab; every run of run-user-app): runs/<verb>-<name>/, git-ignored,
// never data/ or manifests/, so that trying an agent in a clone leaves `git status` clean.
//
//   not registered ─▶ RSTACK_SCRATCH unset? ─▶ RSTACK_SCRATCH=runs/<verb>-<name>/ ─▶ runArm
//   writes its rows, exclusions, run log and data manifest there, laid out as the root's (core/paths.ts)
//
// It is the scratch re-rooting make reproduce REDO=1 uses, not a second mechanism; a RSTACK_SCRATCH
// the caller set wins. A registered run (a frozen prereg/agent-*.md, no --smoke) writes the record.
import path from 'node:path';
import { outputRoot, paths, root, shownPath } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';

/** a name as it may appear in a run id or a folder name */
export const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';

/** runs/<verb>-<name>/: one folder per agent (or app), so that repeating a smoke command resumes it as in data/ */
const folderOf = (verb: string, name: string) => path.join(paths.userRuns(), `${slug(verb)}-${slug(name)}`);

export interface UserRunOutput {
  /** where the run writes (the runs/ folder, or the caller's RSTACK_SCRATCH) */
  folder: string;
  /** says where the files are; call it when the run has ended, however it ended */
  end(): void;
}

/**
 * Re-roots an unregistered run's outputs (RSTACK_SCRATCH) into runs/<verb>-<name>/ unless the caller
 * chose a scratch folder, and says where at the start. null for a registered run: it writes the record.
 */
export function userRunOutput(options: { verb: string; name: string; registered: boolean }): UserRunOutput | null {
  if (options.registered) return null;
  if (outputRoot() === root()) process.env.RSTACK_SCRATCH = folderOf(options.verb, options.name);
  const folder = outputRoot();
  log({ kind: 'info', message: messages.userRunStart(shownPath(folder)) });
  return { folder, end: () => log({ kind: 'info', message: messages.userRunEnd(shownPath(folder)) }) };
}
