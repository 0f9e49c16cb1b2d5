// What the job after the array does (deploy/slurm/merge.sbatch runs `rstackbench slurm-merge`):
//
//   every shard's note says exit 0 (else exit 2, naming the others: resubmit them)
//   ─▶ deploy/collect.ts <data> <into>: the shards' data roots brought into one tree
//   ─▶ a run target: `make merge` there (RSTACK_SCRATCH=<into> unless <into> is the record), one run
//      in a single machine's row order; then, when it went into a scratch folder and the record has a
//      registered run of the arm, `rstackbench compare` of the two
//   ─▶ reproduce: `make reproduce REDO=1 SCRATCH=<data>/all` (every arm merged from its shards and
//      compared with its registered run), then `rstackbench verify`
// Each step is the project's own command, run as a child with its output shown; the first that fails
// is the job's exit code.
import path from 'node:path';
import { codeRoot, root } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { RStackError } from '../../core/errors.ts';
import { commandLine, runInherited } from '../../core/command.ts';
import { existingRun } from '../kernel/run-files.ts';
import { runPrefixOf } from '../kernel/run.ts';
import { parseBrowserName, type BrowserName } from '../browser/launch.ts';
import { planFor } from '../steps/merge.ts';
import { dataPaths, readNote, readSubmission, slurmTargets } from './submission.ts';

const bin = path.join(codeRoot, 'bin', 'rstackbench');
const collect = path.join(codeRoot, 'deploy', 'collect.ts');

/** The value of --browser in a target's flags, if any. */
function browserFlag(args: string[]): string | undefined {
  const i = args.indexOf('--browser');
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith('--browser='))?.slice('--browser='.length);
}

/** The run file the arm's naming finds newest in a data root (the record, or a scratch folder). */
function newestRun(naming: Parameters<typeof existingRun>[0], dataRoot: string): string | undefined {
  const saved = process.env.RSTACK_SCRATCH;
  if (dataRoot === root()) delete process.env.RSTACK_SCRATCH;
  else process.env.RSTACK_SCRATCH = dataRoot;
  try {
    return existingRun(naming, false);
  } finally {
    if (saved === undefined) delete process.env.RSTACK_SCRATCH;
    else process.env.RSTACK_SCRATCH = saved;
  }
}

async function step(command: string[], env: Record<string, string> = {}): Promise<void> {
  // the project's own scripts by their path in the checkout, the rest as given
  const shown = command.map((c) => (c.startsWith(`${codeRoot}${path.sep}`) ? path.relative(codeRoot, c) : c));
  log({ kind: 'info', message: `slurm-merge: ${commandLine(shown[0]!, shown.slice(1))}${Object.keys(env).length ? ` (${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''}` });
  const code = await runInherited(command, env);
  if (code !== 0) throw new RStackError(messages.slurm.mergeStepFailed(command.join(' '), code), { exitCode: code });
}

export async function mergeJob(data: string): Promise<void> {
  const sub = readSubmission(path.resolve(data));
  const paths = dataPaths(sub.data);
  const notDone = Array.from({ length: sub.shards }, (_, i) => i + 1).filter((k) => readNote(paths.taskNote(k))?.exit !== 0);
  if (notDone.length) throw new RStackError(messages.slurm.shardsNotDone(notDone, sub.data), { exitCode: 2 });
  // the merge's children choose their own output root: this one's is not theirs
  delete process.env.RSTACK_SCRATCH;
  const intoScratch = sub.into !== root();
  const scratchEnv: Record<string, string> = intoScratch ? { RSTACK_SCRATCH: sub.into } : {};
  await step([process.execPath, '--import', 'tsx', collect, sub.data, sub.into]);
  if (sub.target === 'reproduce') {
    await step([process.execPath, bin, 'reproduce-redo', '--scratch', sub.into, ...sub.args]);
    await step([process.execPath, bin, 'verify']);
    return;
  }
  const arm = slurmTargets[sub.target].arm!;
  const browser = browserFlag(sub.args);
  await step([process.execPath, bin, 'merge', '--arm', arm, ...(browser ? ['--browser', browser] : []), '--shards', String(sub.shards)], scratchEnv);
  if (!intoScratch) return;
  // the evidence arms' browsers are their own (controlled: Chromium; Arm A and Arm B: Firefox) unless given
  const fixed: Partial<Record<typeof arm, BrowserName>> = { controlled: 'chromium', 'arm-a': 'firefox', 'arm-b': 'firefox' };
  const { plan } = planFor(arm, browser ? parseBrowserName(browser) : (fixed[arm] ?? parseBrowserName(undefined)));
  const naming = { study: plan.study, arm: plan.arm, prefix: runPrefixOf(plan), stamped: plan.stamped ?? true };
  const registered = newestRun(naming, root());
  const merged = newestRun(naming, sub.into);
  if (registered && merged) await step([process.execPath, bin, 'compare', registered, merged]);
  else log({ kind: 'info', message: messages.slurm.nothingToCompare(plan.study, plan.arm) });
}
