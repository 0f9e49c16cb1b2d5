// The end-of-run screen of the planning pilot: per prompt AS, VTS and FC with Wilson intervals, VTS
// per layer, the paired comparison (exact McNemar), and the cost of each prompt: executed steps,
// actions, planning time and tokens.
import { formatRate, mcnemarExact, mean } from '../../core/stats.ts';
import { layers } from '../../fixtures/layers/task.ts';

interface Row {
  condition_id: string; prompt?: string; layer: string; apparent_success: boolean; vts: boolean; false_completion: boolean;
  actions: number; steps?: number; planning_ms?: number; tokens?: number | null; elapsed_ms: number; claim?: { done: boolean } | null; error?: string | null;
}

const pad = (s: string, n: number) => s.padEnd(n);
const fixed = (x: number | null, d = 1) => (x === null ? '–' : x.toFixed(d));

export function pilotSummary(rows: Row[], title: string): string {
  const prompts = ['ordinary', 'reliability'].filter((p) => rows.some((r) => r.prompt === p));
  const lines = [title, '', `${pad('prompt', 13)}${pad('AS', 28)}${pad('VTS', 28)}${pad('FC', 5)}${pad('steps', 7)}${pad('actions', 9)}${pad('planning', 11)}tokens`];
  for (const p of prompts) {
    const rs = rows.filter((r) => r.prompt === p);
    const c = (f: (r: Row) => boolean) => rs.filter(f).length;
    const tokens = rs.map((r) => r.tokens).filter((t): t is number => typeof t === 'number');
    lines.push(
      `${pad(p, 13)}${pad(formatRate(c((r) => r.apparent_success), rs.length), 28)}${pad(formatRate(c((r) => r.vts), rs.length), 28)}${pad(String(c((r) => r.false_completion)), 5)}` +
        `${pad(fixed(mean(rs.map((r) => r.steps ?? 0))), 7)}${pad(fixed(mean(rs.map((r) => r.actions))), 9)}${pad(`${fixed(mean(rs.map((r) => r.planning_ms ?? 0)), 0)} ms`, 11)}${tokens.length ? fixed(mean(tokens), 0) : '–'}`,
    );
  }
  lines.push('', 'VTS by layer (Wilson 95%):', `${pad('layer', 14)}${prompts.map((p) => pad(p, 28)).join('')}`);
  for (const layer of layers) {
    if (!rows.some((r) => r.layer === layer)) continue;
    lines.push(`${pad(layer, 14)}${prompts.map((p) => {
      const rs = rows.filter((r) => r.prompt === p && r.layer === layer);
      return pad(rs.length ? formatRate(rs.filter((r) => r.vts).length, rs.length) : '–', 28);
    }).join('')}`);
  }
  const a = new Map(rows.filter((r) => r.prompt === 'ordinary').map((r) => [r.condition_id, r.vts]));
  const pairs = rows.filter((r) => r.prompt === 'reliability' && a.has(r.condition_id)).map((r) => [a.get(r.condition_id)!, r.vts] as const);
  if (pairs.length) {
    const onlyOrdinary = pairs.filter(([x, y]) => x && !y).length;
    const onlyReliability = pairs.filter(([x, y]) => !x && y).length;
    lines.push('', `paired (${pairs.length} conditions): VTS only under ordinary ${onlyOrdinary}, only under reliability ${onlyReliability}; exact McNemar p = ${mcnemarExact(onlyOrdinary, onlyReliability).toPrecision(4)}`);
  }
  const noClaim = rows.filter((r) => r.claim === null || r.error).length;
  if (noClaim) lines.push(`${noClaim} traces ended without a claim (a control not found, or a bound reached): see their error field`);
  return lines.join('\n');
}
