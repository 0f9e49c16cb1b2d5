import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairedAcrossRuns, pairedWithinRun, summarize, type SummaryRow } from '../../../core/evidence/summary.ts';
import { policyIds } from '../../../core/evidence/policies.ts';

const row = (id: string, truth: 'success' | 'failure', accepts: Partial<Record<string, boolean>>, latency = 10): SummaryRow => ({
  condition_id: id,
  scenario: id.split('-')[0]!,
  truth,
  verdicts: Object.fromEntries(policyIds.map((p) => [p, { accept: accepts[p] ?? truth === 'success', latency_ms: latency }])),
});

test('false accepts count failures accepted; false rejects count successes rejected; each with a Wilson interval', () => {
  const rows = [
    row('a-1', 'failure', { 'optimistic-dom': true }),
    row('a-2', 'failure', { 'optimistic-dom': true }),
    row('b-1', 'success', { 'network-terminal': false }),
    row('b-2', 'success', {}),
  ];
  const s = summarize(rows);
  assert.deepEqual([s.failures, s.successes], [2, 2]);
  assert.equal(s.policies['optimistic-dom'].false_accepts.k, 2);
  assert.equal(s.policies['optimistic-dom'].false_accepts.interval.high, 1);
  assert.equal(s.policies['network-terminal'].false_rejects.k, 1);
  assert.equal(s.policies['transport-committed'].false_accepts.k, 0);
  assert.equal(s.policies['transport-committed'].false_accepts.interval.low, 0);
  assert.deepEqual(s.policies['optimistic-dom'].accepts_by_scenario.a, { accepted: 2, rows: 2 });
});

test('paired within a run: discordant rows and the exact McNemar p', () => {
  const rows = Array.from({ length: 6 }, (_, i) => row(`f-${i}`, 'failure', { 'optimistic-dom': true }));
  const dom = pairedWithinRun(rows).find((p) => p.label.endsWith('optimistic-dom'))!;
  assert.deepEqual([dom.only_first_correct, dom.only_second_correct], [6, 0]);
  assert.ok(Math.abs(dom.p - 2 / 64) < 1e-12); // 2 · (1/2)^6
});

test('paired across runs pairs by condition_id and ignores conditions only one run has', () => {
  const chromium = [row('x-1', 'failure', { 'network-terminal': true }), row('x-2', 'success', {}), row('x-3', 'success', {})];
  const firefox = [row('x-1', 'failure', {}), row('x-2', 'success', {})];
  const nt = pairedAcrossRuns(firefox, chromium, ['firefox', 'chromium']).find((p) => p.label.startsWith('network-terminal'))!;
  assert.equal(nt.pairs, 2);
  assert.deepEqual([nt.only_first_correct, nt.only_second_correct], [1, 0]);
});
