// rstackbench speed-audit RUN.jsonl [RERUN.jsonl]: amendment 7's speed rule beside the flag a
// `layers` run was made with. Per run: rows flagged as recorded, and by the speed rule — decided
// from the row (flagged / not) or left open by moments the row does not keep (undecided; see
// pipeline/layers/speed-bounds.ts). With a rerun of the same arm: every flip between the two, and
// whether the speed rule flags it in either row (a flip it decides "not" in both is a counterexample).
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { UsageError } from '../../core/errors.ts';
import type { LayersTask } from '../../core/layers.ts';
import type { LayersRow } from '../../core/contracts.ts';
import { readLayersTasks } from './read-tasks.ts';
import { speedVerdictOfRow, type SpeedVerdict } from './speed-bounds.ts';
import { unitKey } from './arms.ts';
import { isMain } from '../../core/entry.ts';

type Row = LayersRow & { study: 'layers' };
const outcome = (r: Row) => `AS ${r.apparent_success} VTS ${r.vts} FC ${r.false_completion}`;

export function auditRun(rows: Row[], tasks: Map<string, LayersTask>) {
  const verdicts = new Map<string, SpeedVerdict>();
  const counts = { rows: rows.length, recorded: 0, flagged: 0, not: 0, undecided: 0 };
  const open = new Map<string, number>();
  for (const r of rows) {
    const v = speedVerdictOfRow(r, tasks.get(r.condition_id)!);
    verdicts.set(unitKey(r), v);
    if (r.timing_sensitive) counts.recorded++;
    counts[v.status]++;
    if (v.status === 'undecided') open.set(v.why, (open.get(v.why) ?? 0) + 1);
  }
  return { counts, verdicts, open };
}

if (isMain(import.meta.url)) {
  await main({
    name: 'rstackbench speed-audit',
    summary: "amendment 7's speed rule on a layers run (and the flips against a rerun), beside the flag the rows were made with",
    usage: 'rstackbench speed-audit data/raw/layers/<arm>/<run>.jsonl [data/excluded/layers/<arm>/<rerun>.jsonl]',
    async run(_values, files) {
      if (files.length < 1 || files.length > 2) throw new UsageError('speed-audit takes one layers run file, or a run and a rerun of the same arm');
      const tasks = new Map(readLayersTasks().map((t) => [t.condition_id, t]));
      const runs = files.map((f) => readJsonl<Row>(path.resolve(f!), { schema: 'trace' }));
      if (runs.flat().some((r) => r.study !== 'layers')) throw new UsageError('speed-audit reads layers rows only');
      const audits = runs.map((rows) => auditRun(rows, tasks));
      const lines: string[] = [];
      audits.forEach((a, i) => {
        const c = a.counts;
        lines.push(`${files[i]}: ${c.rows} rows; flagged as recorded ${c.recorded}; speed rule: flagged ${c.flagged}, not ${c.not}, undecided ${c.undecided}`);
        for (const [why, n] of [...a.open].sort((x, y) => y[1] - x[1])) lines.push(`  undecided ${n}: ${why}`);
      });
      if (runs.length === 2) {
        const b = new Map(runs[1]!.map((r) => [unitKey(r), r]));
        const flips = runs[0]!.filter((r) => b.has(unitKey(r)) && outcome(r) !== outcome(b.get(unitKey(r))!));
        let counter = 0;
        lines.push(`flips: ${flips.length}`);
        for (const r of flips) {
          const k = unitKey(r);
          const [va, vb] = [audits[0]!.verdicts.get(k)!, audits[1]!.verdicts.get(k)!];
          const verdict = va.status === 'flagged' || vb.status === 'flagged' ? 'flagged' : va.status === 'undecided' || vb.status === 'undecided' ? 'undecided' : 'NOT FLAGGED';
          if (verdict === 'NOT FLAGGED') counter++;
          lines.push(`  ${k}: ${outcome(r)} → ${outcome(b.get(k)!)}; recorded flags ${r.timing_sensitive}/${b.get(k)!.timing_sensitive}; speed rule: ${verdict} (${va.why} | ${vb.why})`);
        }
        lines.push(`flips the speed rule decides unflagged in both rows (counterexamples): ${counter}`);
      }
      process.stdout.write(lines.join('\n') + '\n');
    },
  });
}
