// make export-trajectories: every trace that kept its files (the real-applications, transport and
// agent arms since issue 51) as an AgentRewardBench trajectory labelled by the store, so that anyone
// can score an LLM judge against database truth (docs/export-trajectories.md).
// Reads: data/raw/layers/{real-apps,transport,agent}/*.jsonl and their .files/ (with --excluded,
// data/excluded/ too), and the conditions in data/tasks/, each arm's version its own file (version 2 of
// real-apps generated when not frozen).
// Writes: --out DIR (default exports/trajectories/, git-ignored): cleaned/rstackbench/<agent>/<experiment>/<task_id>.json,
// annotations.csv (AgentRewardBench's columns) and labels.jsonl (schemas/trajectory-export-label.schema.json).
// Exit 1 when a trace cannot be exported (a missing or changed file, an unknown condition): the others are written.
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { CheckError } from '../../core/errors.ts';
import { readJsonlLines, toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import { messages } from '../../core/messages.ts';
import { outputRoot, paths, rel } from '../../core/paths.ts';
import type { LayersRealAppsTask, LayersRow, LayersTask, TraceRow } from '../../core/contracts.ts';
import { rescoreFiles } from '../../analysis/rescore.ts';
import { readRealAppsTasks, realAppsTaskFile } from '../layers/real-apps/arm.ts';
import { generateRealAppsTasks, realAppsSeed } from '../layers/real-apps/generate.ts';
import { readSmallTransportTasks, readTransportTasks, transportTaskFile } from '../layers/transport/arm.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { annotationsCsv, exportTrace, factsOfRealApps, factsOfSmall, type ConditionFacts, type Exported } from '../export/agent-reward-bench.ts';

type Row = LayersRow & TraceRow;

/** The conditions of each arm and version, read (or, for an unfrozen version, generated) once. */
function conditionFinder() {
  const cache = new Map<string, Map<string, ConditionFacts>>();
  const set = (key: string, load: () => [string, ConditionFacts][]) => {
    if (!cache.has(key)) cache.set(key, new Map(load()));
    return cache.get(key)!;
  };
  const realApps = (version: number) => set(`real-apps-${version}`, () => {
    const file = realAppsTaskFile(version);
    const tasks: LayersRealAppsTask[] = fs.existsSync(file) ? readRealAppsTasks(file) : generateRealAppsTasks(realAppsSeed(version), undefined, version);
    return tasks.map((t) => [t.condition_id, factsOfRealApps(t)]);
  });
  // each version's real-application conditions in their own file; the small apps' are version 1's in every version
  const transport = (version: number) => set(`transport-${version}`, () => [
    ...readTransportTasks(transportTaskFile(version), version).map((t): [string, ConditionFacts] => [t.condition_id, factsOfRealApps(t)]),
    ...readSmallTransportTasks().map((t: LayersTask): [string, ConditionFacts] => [t.condition_id, factsOfSmall(t)]),
  ]);
  const small = () => set('layers', () => readLayersTasks().map((t) => [t.condition_id, factsOfSmall(t)]));
  return (row: Row): ConditionFacts | undefined => {
    if (row.arm === 'transport') return transport(row.arm_version ?? 1).get(row.condition_id);
    if (row.arm === 'real-apps' || row.app) return realApps(row.arm_version ?? 1).get(row.condition_id);
    return small().get(row.condition_id);
  };
}

await main({
  name: 'make export-trajectories',
  summary: "write every trace that kept its files (real-apps, transport, agent arms) as an AgentRewardBench trajectory (agent-reward-bench 0.1.2), labelled by the store's read at the boundary, to score an LLM judge against database truth (docs/export-trajectories.md)",
  usage: 'make export-trajectories [ARGS="--excluded --out DIR"]',
  options: {
    excluded: { type: 'boolean', default: false, help: 'also the run files in data/excluded/ (smoke runs, superseded attempts)' },
    out: { type: 'string', help: 'the folder to write (default: exports/trajectories/ under the output root; emptied of a previous export first)' },
  },
  async run(values) {
    const out = path.resolve(values.out ?? path.join(outputRoot(), 'exports', 'trajectories'));
    process.stdout.write(`${messages.exportTrajectories.start(out)}\n`);
    // the same run files make rescore reads (a run's failed attempts are not rows: rescoreFiles leaves them out)
    const runFiles = rescoreFiles([paths.raw(), ...(values.excluded ? [paths.excluded()] : [])]);
    const factsOf = conditionFinder();
    const exported: Exported[] = [];
    const problems: string[] = [];
    let withoutFiles = 0;
    for (const runFile of runFiles) {
      for (const { value: row, line } of readJsonlLines<Row>(runFile, { schema: 'trace' })) {
        if (row.study !== 'layers') continue;
        if (!row.attachments?.length) { withoutFiles++; continue; }
        const where = `${rel(runFile)}:${line} ${row.condition_id} ${row.policy}`;
        const facts = factsOf(row);
        if (!facts) { problems.push(`${where}: its condition is in none of the arm's condition files`); continue; }
        try {
          exported.push(exportTrace({ runFile, relRunFile: rel(runFile), line: line ?? 0, row, facts }));
        } catch (error) {
          problems.push(`${where}: ${(error as Error).message}`);
        }
      }
    }
    // a previous export's trajectories would be mixed with this one's labels
    fs.rmSync(path.join(out, 'cleaned'), { recursive: true, force: true });
    for (const e of exported) {
      validate('trajectory-export', e.trajectory.rstackbench, { file: e.path });
      validate('trajectory-export-label', e.label, { file: 'labels.jsonl' });
      fs.mkdirSync(path.dirname(path.join(out, e.path)), { recursive: true });
      fs.writeFileSync(path.join(out, e.path), JSON.stringify(e.trajectory));
    }
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'annotations.csv'), annotationsCsv(exported.map((e) => e.annotation)));
    fs.writeFileSync(path.join(out, 'labels.jsonl'), exported.map((e) => toLine(e.label)).join(''));
    const stored = exported.filter((e) => e.label.db_success).length;
    process.stdout.write(`${messages.exportTrajectories.done(exported.length, runFiles.length, stored, withoutFiles, out)}\n`);
    if (problems.length) throw new CheckError(messages.exportTrajectories.problems(problems));
  },
});
