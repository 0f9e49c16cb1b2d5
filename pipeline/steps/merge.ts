// make merge: the shards of one sharded run (`--shard i/n` on n machines, or n completions of a
// Kubernetes Indexed Job, deploy/) become one registered run, row for row what a single-machine run
// writes (times aside). See pipeline/kernel/merge.ts for the steps and checks.
//   gate ─▶ the arm's plan (the same function its run target uses) ─▶ data/raw/<study>/<arm>/*-shard<i>of<n>-*.jsonl
//   ─▶ data/raw/<study>/<arm>/<run>.jsonl; the shard files ─▶ data/excluded/ ("merged into <run>");
//   data/runs.jsonl; manifests/data.sha256
// Reads: the ledger, the arm's tasks (or Arm B's manifest and protocol). Writes: the above.
import { main, intOption } from '../../core/cli.ts';
import { UsageError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { rel } from '../../core/paths.ts';
import type { TraceRow } from '../../core/contracts.ts';
import { runSummary, type SummaryTable } from '../../analysis/run-summary.ts';
import { parseBrowserName, type BrowserName } from '../browser/launch.ts';
import { gate } from '../kernel/gate.ts';
import { mergeShards, type MergePlan } from '../kernel/merge.ts';
import { layersPlan, summaryTables } from '../layers/arms.ts';
import { matrixPlan, readTasks, summaryTables as matrixTables } from '../evidence/matrix.ts';
import { evidenceTasksPath } from '../evidence/tasks-file.ts';
import { armBPlanNaming, armBSummaryTables } from '../evidence/arm-b/run-arm-b.ts';
import { manifestPath, readManifest } from '../evidence/arm-b/manifest.ts';
import { protocolChain, readArmBProtocols } from '../evidence/arm-b/protocol.ts';
import { isMain } from '../../core/entry.ts';

const arms = ['main', 'horizon', 'verified', 'claims', 'controlled', 'arm-a', 'arm-b'] as const;
type Arm = (typeof arms)[number];

/** Each arm's browser when none is given: the one its run target uses. */
const defaultBrowser: Record<Arm, BrowserName> = { main: 'chromium', horizon: 'chromium', verified: 'chromium', claims: 'chromium', controlled: 'chromium', 'arm-a': 'firefox', 'arm-b': 'firefox' };

/** The arm's plan, from the same function its run target calls, and the tables its summary shows. */
export function planFor(arm: Arm, browser: BrowserName, files: { tasks?: string; manifest?: string } = {}): { plan: MergePlan<unknown, TraceRow>; tables: SummaryTable[] } {
  const erase = <U, R extends TraceRow>(p: MergePlan<U, R>) => p as unknown as MergePlan<unknown, TraceRow>;
  switch (arm) {
    case 'main':
    case 'horizon':
    case 'verified':
    case 'claims':
      return { plan: erase(layersPlan(arm, browser)), tables: summaryTables[arm] };
    case 'controlled':
    case 'arm-a':
      return { plan: erase(matrixPlan(arm, browser, readTasks(files.tasks ?? evidenceTasksPath()))), tables: matrixTables };
    case 'arm-b': {
      const manifest = readManifest(manifestPath(files.manifest));
      return { plan: erase(armBPlanNaming(protocolChain(readArmBProtocols(), manifest.id).current.id, manifest, browser)), tables: armBSummaryTables };
    }
  }
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make merge',
    summary: 'join the shard files of one sharded run (--shard i/n) into one registered run, in the order a single-machine run writes its rows',
    usage: 'make merge ARM=main|horizon|verified|claims|controlled|arm-a|arm-b [BROWSER=firefox] [ARGS="--shards 4"]',
    options: {
      arm: { type: 'string', help: `the arm whose shards to merge: ${arms.join(', ')} (the study follows from it)` },
      browser: { type: 'string', help: 'chromium or firefox (default: the browser of the arm\'s run target; main, horizon, verified, claims: $BROWSER, else chromium)' },
      shards: { type: 'string', help: 'N: merge the run sharded N ways (needed only when shard files of more than one N are present)' },
      tasks: { type: 'string', help: 'controlled, arm-a: the task file their run used (default: data/tasks/evidence-controlled.jsonl)' },
      manifest: { type: 'string', help: 'arm-b: the production manifest its run used (default: ARM_B_MANIFEST, else data/tasks/arm-b/manifest.json)' },
    },
    async run(values) {
      if (!values.arm || !arms.includes(values.arm as Arm)) throw new UsageError(`--arm takes one of ${arms.join(', ')}${values.arm ? `, not ${JSON.stringify(values.arm)}` : ' (make merge ARM=main)'}`);
      const arm = values.arm as Arm;
      const fallback = arm === 'main' || arm === 'horizon' || arm === 'verified' || arm === 'claims' ? parseBrowserName(undefined, defaultBrowser[arm]) : defaultBrowser[arm];
      const browser = values.browser ? parseBrowserName(values.browser) : fallback;
      const count = values.shards !== undefined ? intOption(values.shards, 'shards', 1) : undefined;
      await gate();
      const { plan, tables } = planFor(arm, browser, { tasks: values.tasks, manifest: values.manifest });
      const merged = await mergeShards(plan, { count });
      log({ kind: 'info', message: messages.merge.merged(rel(merged.file), merged.rows.length, merged.shards.length) });
      process.stdout.write(`${plan.study}/${plan.arm} ${browser}: ${merged.rows.length} rows in ${rel(merged.file)} (run ${merged.runId}), merged from:\n`);
      for (const [k, s] of merged.shards.entries()) process.stdout.write(`  shard ${s.index}/${s.count} → ${merged.excluded[k]}\n`);
      process.stdout.write(`\n${runSummary(merged.rows, tables)}\n`);
    },
  });
}
