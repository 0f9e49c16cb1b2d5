// make merge: the shard files of one sharded run become one registered run.
//
//   1. plan            the arm's units in order, from the same plan function the run used
//   2. shard files     data/raw/<study>/<arm>/<prefix>-shard<i>of<n>[-<time>].jsonl: all n present,
//                      one file each, each holding exactly its shard's units (else exit 2, naming them)
//   3. one run         the same ledger head and browser version in every shard
//   4. merged run      <prefix>-<time>.jsonl (<prefix>.jsonl for arms whose ids are not stamped): every
//                      row in the plan's unit order — the order a single-machine run writes — with the
//                      merged run's id; nothing else in a row changes
//   5. shards aside    data/excluded/<study>/<arm>/ with the reason "merged into <run>"; data/runs.jsonl
//                      gets the merge as a session (start and end); manifests/data.sha256
//
// Nothing is written or moved unless every check of steps 2–3 passes. The arm's run slot and its
// shards' slots are locked throughout (run-lock.ts): a merge beside a live shard writer is refused.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { readJsonl, toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import { RStackError, UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import type { TraceRow } from '../../core/contracts.ts';
import { inShard, runPrefixOf, type RunPlan } from './run.ts';
import { existingRun, stamp } from './run-files.ts';
import { excludeFile } from './exclude.ts';
import { writeFileAtomic } from './files.ts';
import { logEnd, logStart, runningSessions } from './run-log.ts';
import { updateDataManifest } from './manifest.ts';
import { lockRunSlot, type RunLock } from './run-lock.ts';

/** What a merge needs of a run plan: the naming, the units in order, and the keys. */
export type MergePlan<U, R extends TraceRow> = Pick<RunPlan<U, R, unknown>, 'study' | 'arm' | 'browser' | 'runPrefix' | 'stamped' | 'units' | 'unitKey' | 'rowKey'>;

export interface ShardFile { index: number; count: number; file: string }

export interface MergeResult<R> { runId: string; file: string; rows: R[]; shards: ShardFile[]; excluded: string[] }

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The registered shard run files of a plan's arm: <prefix>-shard<i>of<n>[-<time>].jsonl. */
export function shardFiles(plan: MergePlan<unknown, TraceRow>): ShardFile[] {
  const dir = paths.rawArm(plan.study, plan.arm);
  if (!fs.existsSync(dir)) return [];
  const pattern = new RegExp(`^${escapeRegExp(runPrefixOf(plan))}-shard(\\d+)of(\\d+)(-[^/]+)?\\.jsonl$`);
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const m = pattern.exec(name);
      return m && !name.includes('-smoke-') ? [{ index: Number(m[1]), count: Number(m[2]), file: path.join(dir, name) }] : [];
    });
}

const some = (keys: string[], max = 4) => `${keys.slice(0, max).join(', ')}${keys.length > max ? ` … (${keys.length} in all)` : ''}`;

export async function mergeShards<U, R extends TraceRow>(plan: MergePlan<U, R>, options: { count?: number } = {}): Promise<MergeResult<R>> {
  const prefix = runPrefixOf(plan);
  const dir = paths.rawArm(plan.study, plan.arm);
  // 2. which sharding, and its files
  const found = shardFiles(plan as MergePlan<unknown, TraceRow>);
  if (!found.length) throw new UsageError(messages.merge.noShards(prefix, rel(dir)));
  const counts = [...new Set(found.map((s) => s.count))].sort((a, b) => a - b);
  if (options.count === undefined && counts.length > 1) {
    throw new UsageError(messages.merge.manyCounts(counts.map((n) => `${found.filter((s) => s.count === n).length} file(s) of ${n} shards`)));
  }
  const count = options.count ?? counts[0]!;
  const shards = found.filter((s) => s.count === count);
  if (!shards.length) throw new UsageError(messages.merge.noShards(`${prefix}-shard<i>of${count}`, rel(dir)));

  // the arm's run slot and every shard's, held to the end: no run writes into what is being merged
  const locks: RunLock[] = [];
  try {
    for (const p of [prefix, ...Array.from({ length: count }, (_, i) => `${prefix}-shard${i + 1}of${count}`)]) locks.push(lockRunSlot({ study: plan.study, arm: plan.arm, prefix: p, smoke: false }));
    return await mergeLocked(plan, { prefix, dir, count, shards });
  } finally {
    for (const lock of locks) lock.release();
  }
}

async function mergeLocked<U, R extends TraceRow>(plan: MergePlan<U, R>, s: { prefix: string; dir: string; count: number; shards: ShardFile[] }): Promise<MergeResult<R>> {
  const { prefix, dir, count, shards } = s;
  const already = existingRun({ study: plan.study, arm: plan.arm, prefix, stamped: plan.stamped ?? true }, false);
  if (already) throw new UsageError(messages.merge.registeredExists(rel(already)));
  const files = new Set(shards.map((s) => rel(s.file)));
  const running = runningSessions().filter((s) => files.has(s.file));
  if (running.length) throw new RStackError(messages.merge.stillRunning(running.map((s) => s.session)), { exitCode: 2 });

  const problems: string[] = [];
  const byIndex = new Map<number, ShardFile>();
  for (let i = 1; i <= count; i++) {
    const of = shards.filter((s) => s.index === i);
    if (!of.length) problems.push(`shard ${i}/${count}: missing (no ${prefix}-shard${i}of${count}-….jsonl in ${rel(dir)})`);
    else if (of.length > 1) problems.push(`shard ${i}/${count}: duplicated: ${of.map((s) => rel(s.file)).join(', ')} (move all but one aside)`);
    else byIndex.set(i, of[0]!);
  }
  for (const s of shards) if (s.index < 1 || s.index > count) problems.push(`${rel(s.file)}: shard ${s.index} of ${count} does not exist`);

  // every shard holds exactly its own units, once
  const unitIndex = new Map(plan.units.map((u, i) => [plan.unitKey(u), i]));
  const rowsByKey = new Map<string, R>();
  const heads = new Map<string, string[]>();
  const versions = new Map<string, string[]>();
  for (const [i, shard] of byIndex) {
    const name = rel(shard.file);
    const rows = readJsonl<R>(shard.file, { schema: 'trace' });
    const expected = new Set(plan.units.filter((_, k) => inShard(k, { index: i, count })).map((u) => plan.unitKey(u)));
    const seen = new Set<string>();
    const twice: string[] = [];
    const foreign: string[] = [];
    for (const row of rows) {
      const key = plan.rowKey(row);
      if (seen.has(key)) twice.push(key);
      seen.add(key);
      if (!expected.has(key)) foreign.push(unitIndex.has(key) ? `${key} (shard ${(unitIndex.get(key)! % count) + 1})` : `${key} (not a unit of the plan)`);
      else rowsByKey.set(key, row);
      if (row.study !== plan.study || row.arm !== plan.arm || row.browser.name !== plan.browser) foreign.push(`${key} (${row.study}/${row.arm} ${row.browser.name})`);
      heads.set(row.ledger_head, [...(heads.get(row.ledger_head) ?? []), name]);
      versions.set(row.browser.version, [...(versions.get(row.browser.version) ?? []), name]);
    }
    const missing = [...expected].filter((k) => !seen.has(k));
    if (missing.length) problems.push(`${name}: ${missing.length} of its ${expected.size} rows missing (${some(missing)}): resume it with the same --shard ${i}/${count}`);
    if (twice.length) problems.push(`${name}: rows written twice: ${some(twice)}`);
    if (foreign.length) problems.push(`${name}: rows that are not this shard's: ${some(foreign)}`);
  }
  // 3. one run: one frozen protocol, one browser build
  const uniq = (m: Map<string, string[]>) => [...m].map(([value, names]) => `${value.slice(0, 16)} in ${[...new Set(names)].join(', ')}`);
  if (heads.size > 1) problems.push(`the shards were gated by different ledger heads: ${uniq(heads).join('; ')}`);
  if (versions.size > 1) problems.push(`the shards ran different ${plan.browser} versions: ${uniq(versions).join('; ')}`);
  if (problems.length) throw new UsageError(messages.merge.refused(prefix, count, problems));

  // 4. one file, rows in the plan's order
  const runId = (plan.stamped ?? true) ? `${prefix}-${stamp()}` : prefix;
  const file = path.join(dir, `${runId}.jsonl`);
  const ordered = plan.units.map((u) => {
    const row = { ...rowsByKey.get(plan.unitKey(u))!, run_id: runId };
    return validate<R>('trace', row, { file: rel(file) });
  });
  const ids = [...byIndex.values()].map((s) => path.basename(s.file, '.jsonl'));
  const start = logStart({
    run_id: runId, study: plan.study, arm: plan.arm, browser: plan.browser, file: rel(file), registered: true,
    rows: 0, selection: `merge of ${count} shards: ${ids.join(' ')}`, redo: null, total: plan.units.length,
  });
  const excluded: string[] = [];
  let exit = 1;
  try {
    writeFileAtomic(file, ordered.map(toLine).join(''));
    // 5. the shard files stay, in data/excluded/, with the reason
    for (const s of byIndex.values()) excluded.push(rel(excludeFile(s.file, plan.study, plan.arm, `merged into ${runId}`)));
    exit = 0;
  } finally {
    logEnd(start, { rows: fs.existsSync(file) ? ordered.length : 0, exit, excluded });
    await updateDataManifest();
  }
  return { runId, file, rows: ordered, shards: [...byIndex.values()], excluded };
}
