// rstackbench compare A B: two runs of the same arm (a registered run and its redo, a run and a
// smoke rerun, two shards' merge and a single-machine run), unit by unit. An outcome is what the
// analysis counts: AS, VTS and FC (and the claim) for a `layers` row, each policy's verdict for an
// `evidence` row. Flips among rows flagged timing-sensitive in either run are counted apart: the
// protocol reports those as following the machine's speed.
//
//   A.jsonl, B.jsonl ─▶ rows keyed by unit ─▶ only in A, only in B, same, flipped (flagged / not)
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { UsageError } from '../../core/errors.ts';
import type { TraceRow } from '../../core/contracts.ts';
import { unitKey } from '../layers/arms.ts';
import { isMain } from '../../core/entry.ts';

// a pilot row is one plan (two prompts share a condition); every other layers row one (condition, policy, horizon)
export const unitOf = (r: TraceRow) => (r.study === 'layers' ? (r.plan_id ?? unitKey(r)) : r.condition_id);
const outcomeOf = (r: TraceRow) =>
  r.study === 'layers'
    ? JSON.stringify({ as: r.apparent_success, vts: r.vts, fc: r.false_completion, claim: r.claim?.done ?? null })
    : JSON.stringify(Object.fromEntries(Object.entries(r.verdicts).sort().map(([p, v]) => [p, v?.accept])));
/**
 * Whether a row is flagged timing-sensitive: the one place every comparison (this command, the bench)
 * asks it, so that the flag rule (pipeline/layers/scoring.ts, recorded in the row) can change here alone.
 */
export const timingSensitive = (r: TraceRow | undefined) => r?.study === 'layers' && r.timing_sensitive === true;

/** A unit whose outcome differs: the outcome in each run (JSON of what the analysis counts). */
export interface Flip { key: string; a: string; b: string }

export interface Comparison {
  onlyA: string[];
  onlyB: string[];
  same: number;
  /** flipped, flagged timing-sensitive in neither run */
  flips: Flip[];
  /** flipped, flagged in at least one run */
  flagged: Flip[];
  /** flagged.length */
  flaggedFlips: number;
}

export function compareRuns(a: TraceRow[], b: TraceRow[]): Comparison {
  const mapA = new Map(a.map((r) => [unitOf(r), r]));
  const mapB = new Map(b.map((r) => [unitOf(r), r]));
  const out: Comparison = { onlyA: [], onlyB: [], same: 0, flips: [], flagged: [], flaggedFlips: 0 };
  for (const [key, ra] of mapA) {
    const rb = mapB.get(key);
    if (!rb) out.onlyA.push(key);
    else if (outcomeOf(ra) === outcomeOf(rb)) out.same++;
    else (timingSensitive(ra) || timingSensitive(rb) ? out.flagged : out.flips).push({ key, a: outcomeOf(ra), b: outcomeOf(rb) });
  }
  for (const key of mapB.keys()) if (!mapA.has(key)) out.onlyB.push(key);
  out.flaggedFlips = out.flagged.length;
  return out;
}

/** What changed in a flip, field by field: `vts false → true`. */
export function flipChange(f: Flip): string {
  const a = JSON.parse(f.a) as Record<string, unknown>;
  const b = JSON.parse(f.b) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k} ${JSON.stringify(a[k] ?? null)} → ${JSON.stringify(b[k] ?? null)}`)
    .join(', ');
}

if (isMain(import.meta.url)) {
  await main({
    name: 'rstackbench compare',
    summary: 'compare two runs of the same arm unit by unit: which outcomes flipped, apart from rows flagged timing-sensitive',
    usage: 'rstackbench compare data/excluded/<study>/<arm>/<old>.jsonl data/raw/<study>/<arm>/<new>.jsonl',
    async run(_values, files) {
      if (files.length !== 2) throw new UsageError('compare takes two run files (JSONL): the first and the second run of one arm');
      const [a, b] = files.map((f) => readJsonl<TraceRow>(path.resolve(f!), { schema: 'trace' }));
      const arms = new Set([...a!, ...b!].map((r) => `${r.study}/${r.arm}`));
      if (arms.size > 1) throw new UsageError(`the two files hold rows of more than one arm: ${[...arms].join(', ')}`);
      const c = compareRuns(a!, b!);
      const lines = [
        `${files[0]}: ${a!.length} rows; ${files[1]}: ${b!.length} rows`,
        `same outcome: ${c.same}; flipped: ${c.flips.length} (flagged timing-sensitive in neither run) + ${c.flaggedFlips} (flagged in either)`,
        `only in the first: ${c.onlyA.length}; only in the second: ${c.onlyB.length}`,
        ...c.flips.slice(0, 40).map((f) => `  ${f.key}: ${flipChange(f)}`),
        ...(c.flips.length > 40 ? [`  … ${c.flips.length - 40} more`] : []),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    },
  });
}
