// The end-of-run screen: AS, VTS and FC per policy (overall and per layer), with Wilson intervals.
import { formatRate, mean } from '../../core/stats.ts';
import { layers } from '../../fixtures/layers/task.ts';

interface Row { policy: string; layer: string; apparent_success: boolean; vts: boolean; false_completion: boolean; actions: number; elapsed_ms: number; timing_sensitive?: boolean; horizon_ms: number }

const pad = (s: string, n: number) => s.padEnd(n);

export function layersSummary(rows: Row[], title: string): string {
  const policies = [...new Set(rows.map((r) => r.policy))];
  const lines = [title, ''];
  lines.push(`${pad('policy', 20)}${pad('AS', 28)}${pad('VTS', 28)}${pad('FC', 8)}actions  latency`);
  for (const p of policies) {
    const rs = rows.filter((r) => r.policy === p);
    const n = rs.length;
    const c = (f: (r: Row) => boolean) => rs.filter(f).length;
    lines.push(
      `${pad(p, 20)}${pad(formatRate(c((r) => r.apparent_success), n), 28)}${pad(formatRate(c((r) => r.vts), n), 28)}${pad(String(c((r) => r.false_completion)), 8)}` +
        `${(mean(rs.map((r) => r.actions)) ?? 0).toFixed(2).padEnd(9)}${(mean(rs.map((r) => r.elapsed_ms)) ?? 0).toFixed(0)} ms`,
    );
  }
  lines.push('', 'VTS by layer (Wilson 95%):');
  lines.push(`${pad('layer', 14)}${policies.map((p) => pad(p, 28)).join('')}`);
  for (const layer of layers) {
    const cells = policies.map((p) => {
      const rs = rows.filter((r) => r.policy === p && r.layer === layer);
      return pad(rs.length ? formatRate(rs.filter((r) => r.vts).length, rs.length) : '–', 28);
    });
    if (rows.some((r) => r.layer === layer)) lines.push(`${pad(layer, 14)}${cells.join('')}`);
  }
  const sensitive = rows.filter((r) => r.timing_sensitive).length;
  lines.push('', `timing-sensitive traces (outcome within 25 ms of flipping with the machine's speed; prereg amendments 1 and 4): ${sensitive}`);
  return lines.join('\n');
}

export function horizonSummary(rows: Row[], title: string): string {
  const horizons = [...new Set(rows.map((r) => r.horizon_ms))].sort((a, b) => a - b);
  const lines = [title, '', `${pad('layer', 14)}${horizons.map((h) => pad(`${h} ms`, 26)).join('')}`];
  for (const layer of layers) {
    const rs = rows.filter((r) => r.layer === layer);
    if (!rs.length) continue;
    lines.push(
      `${pad(layer, 14)}${horizons
        .map((h) => {
          const at = rs.filter((r) => r.horizon_ms === h);
          return pad(formatRate(at.filter((r) => r.vts).length, at.length), 26);
        })
        .join('')}`,
    );
  }
  return lines.join('\n');
}
