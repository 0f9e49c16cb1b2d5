// The transport arm (issue 37) on the run skeleton (pipeline/kernel/run.ts): what `make run-transport`
// runs. Transport faults and compound conditions on WordPress and MediaWiki, made by the fault proxy
// from each family's spec (fixtures/proxy/transport.json, design.ts), scored by each application's
// database, with the store's own count of changes to the target and false abandonment beside AS,
// VTS and FC. The trace is the real-applications arm's (real-apps/condition.ts), unchanged; so are
// its three reference policies, its proxy and its applications (real-apps/arm.ts).
//
//   data/tasks/layers-transport.jsonl ─▶ units (condition × reference policy) ─▶ both apps up ─▶
//   one fault proxy ─▶ the browser through it ─▶ per unit: real-apps/condition.ts ─▶
//   data/raw/layers/transport/<run>.jsonl
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from '../../../core/cli.ts';
import { RStackError, UsageError } from '../../../core/errors.ts';
import { log } from '../../../core/log.ts';
import { paths, rel } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRealAppsTask, LayersRow } from '../../../core/contracts.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import { runArm } from '../../kernel/run.ts';
import { runFlags } from '../../kernel/run-flags.ts';
import { parseBrowserName } from '../../browser/launch.ts';
import { realAppsOptions, realAppsPlan, realAppsResources, type RealAppsUnit } from '../real-apps/arm.ts';
import { realAppPolicies } from '../real-apps/policies.ts';

export const transportTaskFile = () => path.join(paths.tasks(), 'layers-transport.jsonl');

/** The frozen conditions of the arm, each validated against schemas/layers-real-apps-task.schema.json. */
export function readTransportTasks(file = transportTaskFile()): LayersRealAppsTask[] {
  if (!fs.existsSync(file)) throw new RStackError(`${rel(file)} is missing: make tasks-transport, then make freeze`, { exitCode: 2 });
  const tasks = readJsonl<LayersRealAppsTask>(file, { schema: 'layers-real-apps-task' });
  const other = tasks.find((t) => t.arm !== 'transport');
  if (other) throw new RStackError(`${rel(file)}: ${other.condition_id} is a condition of arm ${other.arm}, not transport`, { exitCode: 2 });
  return tasks;
}

export function transportUnits(tasks: LayersRealAppsTask[] = readTransportTasks()): RealAppsUnit[] {
  return tasks.flatMap((task) => realAppPolicies.map((p) => ({ task, policy: p.name })));
}

/** The end screen: per fault (or pair) and policy, n, AS, VTS, FC, false abandonment and writes the store counted more than once. */
export function transportSummary(rows: readonly LayersRow[]): string {
  const what = (r: LayersRow) => r.transport ? `${r.layer === 'baseline' ? '' : `${r.layer}+`}${r.transport.fault} ${r.transport.severity}` : r.also ? `${r.layer}+${r.also.layer}` : r.condition_id.endsWith('-control') ? `control ${r.layer}` : r.layer;
  const groups = new Map<string, LayersRow[]>();
  for (const r of rows) groups.set(`${what(r)}|${r.policy}`, [...(groups.get(`${what(r)}|${r.policy}`) ?? []), r]);
  const lines = ['condition                       policy                 n   AS  VTS   FC   FA  twice'];
  for (const [key, rs] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [condition, policy] = key.split('|');
    const count = (f: (r: LayersRow) => boolean) => String(rs.filter(f).length).padStart(4);
    lines.push(`${condition!.padEnd(32)}${policy!.padEnd(20)}${String(rs.length).padStart(4)} ${count((r) => r.apparent_success)} ${count((r) => r.vts)} ${count((r) => r.false_completion)} ${count((r) => r.false_abandonment === true)} ${count((r) => (r.store_writes ?? 0) > 1)}`);
  }
  return lines.join('\n');
}

export const transportCommand: Command<typeof realAppsOptions> = {
  name: 'make run-transport',
  summary: 'transport faults and compound conditions on real applications: every condition of data/tasks/layers-transport.jsonl × the 3 reference policies, on WordPress and MediaWiki behind the fault proxy, scored by their databases; prints AS / VTS / FC, false abandonment and writes made more than once per condition and policy',
  usage: 'make run-transport [BROWSER=firefox] [ARGS="--smoke --only wordpress-general-title-transport"]',
  options: realAppsOptions,
  async run(values) {
    const browser = parseBrowserName(values.browser);
    const flags = runFlags(values);
    if (flags.workers !== 1 || (flags.browsers ?? 1) !== 1) throw new UsageError('make run-transport runs one condition at a time (each application has one database, which a condition resets and reads): WORKERS=1');
    // the gate (run.ts) refuses a prereg/ that differs from the ledger head: a prereg found here is frozen
    if (!flags.smoke && !readPreregs().some((p) => p.study === 'layers' && p.arm === 'transport')) {
      throw new UsageError('no frozen prereg registers the transport arm (prereg/layers-transport.md): write it, make freeze, then run; until then only ARGS=--smoke (rows to data/excluded/)');
    }
    const resources = realAppsResources();
    let result;
    try {
      result = await runArm(flags, () => realAppsPlan({ browser, resources, units: transportUnits(), arm: 'transport' }));
    } finally {
      await resources.close();
    }
    process.stdout.write(`layers/transport ${browser}: ${result.rows.length} rows in ${rel(result.file)}\n\n${transportSummary(result.rows)}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} traces recorded a policy error (see the rows' error field)` });
    return 0;
  },
};
