// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Two runs of one arm through the same console tables, row beside row (make reproduce REDO=1's screen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSummary, summariesBeside } from '../../analysis/run-summary.ts';
import type { LayersRow } from '../../core/contracts.ts';

const row = (id: string, policy: string, vts: boolean): LayersRow => ({
  schema: 'trace/1', study: 'layers', arm: 'main', run_id: 'r', condition_id: id, policy,
  browser: { name: 'chromium', version: '1' }, ledger_head: 'a'.repeat(64), started_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 1,
  template: 'cards', layer: 'state', severity: 1, apparent_success: true, vts, false_completion: !vts, actions: 2, retries: 0,
  horizon_ms: 100, persisted: {}, target: {},
});

test('a cell both runs agree on is shown once; a count that differs is shown first → second and its row marked', () => {
  const first = [row('c1', 'p1', true), row('c2', 'p1', true), row('c1', 'p2', false)];
  const second = [row('c1', 'p1', true), row('c2', 'p1', false), row('c1', 'p2', false)];
  const text = summariesBeside(first, second, [{ name: 'layers_overall', hide: ['browser', 'mean_retries', 'mean_latency_ms'] }]);
  const lines = text.split('\n');
  const p1 = lines.find((l) => /\bp1\b/.test(l))!;
  const p2 = lines.find((l) => /\bp2\b/.test(l))!;
  assert.match(p1, /^≠/);
  assert.match(p1, /2\/2 100\.0% → 1\/2 50\.0%/);
  assert.doesNotMatch(p2, /^≠|→/);
  assert.match(p2, /0\/1 0\.0% \[/, 'an unchanged rate keeps its interval');
});

test('the console tables sort as the paper does: horizons as numbers, layers by their rank', () => {
  const at = (id: string, layer: 'state' | 'verification', horizon: number): LayersRow => ({ ...row(id, 'single-action', true), arm: 'horizon', layer, horizon_ms: horizon });
  const horizons = [1000, 150, 350, 50, 750];
  const rows = horizons.flatMap((h) => [at(`v-${h}`, 'verification', h), at(`s-${h}`, 'state', h)]);
  for (const text of [runSummary(rows, [{ name: 'layers_horizon' }]), summariesBeside(rows, rows, [{ name: 'layers_horizon' }])]) {
    const body = text.split('\n').filter((l) => /\b(state|verification)\b/.test(l));
    const seen = body.map((l) => `${/\b(state|verification)\b/.exec(l)![1]} ${/\b(50|150|350|750|1000)\b/.exec(l)![1]}`);
    assert.deepEqual(seen, [...['state', 'verification'].flatMap((layer) => [50, 150, 350, 750, 1000].map((h) => `${layer} ${h}`))]);
  }
});
