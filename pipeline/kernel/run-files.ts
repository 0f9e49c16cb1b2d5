// Which file a run session writes into, for every arm (layers, evidence, arm-b, agents, pilot):
//
//   registered   the arm's run file in data/raw/<study>/<arm>/: resumed while incomplete, reported
//                when complete; --redo "reason" moves it to data/excluded/ and starts a new one —
//                unless that run was itself started by a redo with the same reason and is not
//                complete, in which case repeating the command resumes it
//   smoke        data/excluded/<study>/<arm>/<prefix>-smoke-<time>.jsonl: the newest smoke run of
//                the same selection (--only, --shard) resumes while incomplete
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { excludeFile } from './exclude.ts';
import { readRunLog } from './run-log.ts';
import { countRows } from './files.ts';

export interface RunNaming {
  study: string;
  arm: string;
  /** run ids start with it: `<study>-<arm>-<browser>` unless an arm names its runs otherwise */
  prefix: string;
  /** registered run ids add the start time (layers, evidence); arm-b's are the prefix alone */
  stamped: boolean;
}

export const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');

function newest(dir: string, accept: (name: string) => boolean): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const found = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl') && accept(f)).sort();
  return found.length ? path.join(dir, found.at(-1)!) : undefined;
}

/** The newest registered run file of an arm (or smoke run, with smoke) whose id starts with prefix. */
export function existingRun(naming: RunNaming, smoke: boolean): string | undefined {
  if (smoke) return newest(paths.excludedArm(naming.study, naming.arm), (f) => f.startsWith(`${naming.prefix}-smoke-`));
  // a shard's files (<prefix>-shard<i>of<n>-…) belong to their shard, not to the whole arm's run
  const isShardOf = (f: string) => /^shard\d+of\d+(-|\.jsonl$)/.test(f.slice(naming.prefix.length + 1));
  return newest(paths.rawArm(naming.study, naming.arm), (f) => (naming.stamped ? f.startsWith(`${naming.prefix}-`) && !f.includes('-smoke-') && !isShardOf(f) : f === `${naming.prefix}.jsonl`));
}

export interface ChosenRun {
  runId: string;
  file: string;
  /** the rows already in it */
  resumed: number;
  /** files moved to data/excluded/ by this choice */
  excluded: string[];
}

/** The run to write into (see the top of this file). total: rows a complete run has. */
export function chooseRun(naming: RunNaming, options: { smoke: boolean; redo?: string; selection: string | null; total: number }): ChosenRun {
  const dir = options.smoke ? paths.excludedArm(naming.study, naming.arm) : paths.rawArm(naming.study, naming.arm);
  const fresh = (): ChosenRun => {
    const runId = options.smoke ? `${naming.prefix}-smoke-${stamp()}` : naming.stamped ? `${naming.prefix}-${stamp()}` : naming.prefix;
    return { runId, file: path.join(dir, `${runId}.jsonl`), resumed: 0, excluded: [] };
  };
  const resume = (file: string): ChosenRun => ({ runId: path.basename(file, '.jsonl'), file, resumed: countRows(file), excluded: [] });
  const existing = existingRun(naming, options.smoke);
  if (!existing) return fresh();
  const starts = readRunLog().filter((l) => l.event === 'start' && l.file === rel(existing));
  const incomplete = countRows(existing) < options.total;

  if (options.smoke) {
    // the same selection, not finished: the command was repeated after a stop
    const sameSelection = starts.length > 0 && starts[0]!.selection === options.selection;
    return sameSelection && incomplete ? resume(existing) : fresh();
  }
  if (options.redo === undefined) return resume(existing);
  const startedBySameRedo = starts.length > 0 && starts[0]!.redo === options.redo;
  if (startedBySameRedo && incomplete) return resume(existing);
  const moved = excludeFile(existing, naming.study, naming.arm, `superseded by a redo: ${options.redo}`);
  return { ...fresh(), excluded: [rel(moved)] };
}
