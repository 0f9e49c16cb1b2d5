// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The deviations section is generated from the record: a planted amendment frozen after a registered
// attempt is listed with that attempt as its trigger; the attempt is compared with its successor;
// sessions from data/runs.jsonl show a code change between them; overlapping runs are listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree, runScript, samplePrereg } from '../helpers/tree.ts';
import { sha256 } from '../../core/hash.ts';
import { deviations, heldWriteDeviations } from '../../analysis/deviations.ts';

const heads = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => ({ hash: sha256(l), at: Date.parse((JSON.parse(l) as { at: string }).at) }));

function row(runId: string, head: string, at: number, condition: string, vts: boolean, elapsed = 100): string {
  return JSON.stringify({
    schema: 'trace/1', study: 'layers', arm: 'main', run_id: runId, condition_id: condition, policy: 'selector-only',
    browser: { name: 'chromium', version: '140.0' }, ledger_head: head, started_at: new Date(at).toISOString(), elapsed_ms: elapsed,
    template: 'cards', layer: 'access', severity: 1, apparent_success: vts, vts, false_completion: false, actions: 1, retries: 0,
    horizon_ms: 100, persisted: {}, target: {},
  });
}

test('an amendment frozen after a registered attempt is listed with that attempt as its trigger, and the attempt with its successor', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'v1']);
  const [e0] = heads(tree.file('manifests/ledger.jsonl'));
  tree.write('prereg/sample-amendment-1.md', samplePrereg('sample-amendment-1').replace('supersedes: null', 'supersedes: sample\ntitle: a late look is timing-sensitive'));
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'amendment 1']);
  const [, e1] = heads(tree.file('manifests/ledger.jsonl'));
  // a registered attempt gated by v1 whose rows lie between the two freezes, later moved aside (as --redo does)
  const attempt = 'layers-main-chromium-attempt';
  const between = (f: number) => e0!.at + Math.floor((e1!.at - e0!.at) * f);
  tree.write(`data/excluded/layers/main/${attempt}.jsonl`, [row(attempt, e0!.hash, between(0.2), 'c1', true, 0), row(attempt, e0!.hash, between(0.4), 'c2', true, 0)].join('\n') + '\n');
  tree.write('data/excluded/REASONS.jsonl', JSON.stringify({ at: new Date(between(0.6)).toISOString(), file: `data/excluded/layers/main/${attempt}.jsonl`, from: `data/raw/layers/main/${attempt}.jsonl`, rows: 2, reason: 'superseded by a redo' }) + '\n');
  // the registered successor: c1 changes outcome; two sessions under different commits
  const successor = 'layers-main-chromium-successor';
  tree.write(`data/raw/layers/main/${successor}.jsonl`, [row(successor, e1!.hash, e1!.at + 1000, 'c1', false), row(successor, e1!.hash, e1!.at + 5000, 'c2', true)].join('\n') + '\n');
  // a smoke run of the horizon arm that overlaps the successor
  tree.write('data/excluded/layers/horizon/smoke.jsonl', JSON.stringify({ ...JSON.parse(row('horizon-smoke', e1!.hash, e1!.at + 2000, 'h1', true)), arm: 'horizon', smoke: true }) + '\n');
  const session = (event: 'start' | 'end', at: number, commit: string, extra: object = {}) => JSON.stringify({
    schema: 'run-log/1', event, run_id: successor, study: 'layers', arm: 'main', browser: 'chromium', file: `data/raw/layers/main/${successor}.jsonl`,
    registered: true, at: new Date(at).toISOString(), commit, dirty: false, load: [1.5, 1, 0.5], rows: 0, ...extra,
  });
  tree.write('data/runs.jsonl', [
    session('start', e1!.at + 500, 'a'.repeat(40)), session('end', e1!.at + 1500, 'a'.repeat(40), { exit: 1, excluded: [] }),
    session('start', e1!.at + 4500, 'b'.repeat(40)), session('end', e1!.at + 5500, 'b'.repeat(40), { exit: 0, excluded: [] }),
  ].join('\n') + '\n');

  const d = deviations();
  const amendment = d.deviations_amendments.find((r) => r.id === 'sample-amendment-1')!;
  assert.equal(amendment.relation, 'supersedes sample');
  assert.equal(amendment.ledger_seq, 1);
  assert.equal(amendment.record_trigger, 'registered attempt');
  assert.match(String(amendment.trigger_runs), new RegExp(`^${attempt} \\(superseded, 2 rows, `));
  assert.equal(amendment.registered_rows_before, 2);
  assert.equal(amendment.changes, 'a late look is timing-sensitive');
  assert.equal(d.deviations_amendments.find((r) => r.id === 'sample')!.record_trigger, 'original');

  const runs = new Map(d.deviations_runs.map((r) => [r.run_id, r]));
  const att = runs.get(attempt)!;
  assert.equal(att.status, 'superseded');
  assert.equal(att.reason, 'superseded by a redo');
  assert.equal(att.successor, successor);
  assert.equal(att.outcome_differences_n, 1);
  assert.equal(att.outcome_differences, 'c1 selector-only: vts true→false, as true→false');
  const succ = runs.get(successor)!;
  assert.equal(succ.sessions, 2);
  assert.equal(succ.commits, 'aaaaaaa,bbbbbbb');
  assert.equal(succ.code_changed_between_sessions, true);
  assert.equal(succ.exits, '1,0');

  assert.deepEqual(d.deviations_overlaps.map((o) => [o.run_a, o.run_b, o.status_b]), [[successor, 'horizon-smoke', 'smoke']]);
  const gap = d.deviations_gaps.find((g) => g.arm === 'main')!;
  assert.equal(gap.earlier_attempts_kept, 1);
  assert.equal(gap.attempts_lost_possible, false, 'the run log began before the registered run');
});

test('an amendment frozen with no run before it says so, rather than inventing a trigger', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'v1']);
  tree.write('prereg/sample-amendment-1.md', samplePrereg('sample-amendment-1').replace('supersedes: null', 'supersedes: sample\ntrigger: a failing test'));
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'amendment 1']);
  const a = deviations().deviations_amendments.find((r) => r.id === 'sample-amendment-1')!;
  assert.equal(a.record_trigger, 'none recorded');
  assert.equal(a.trigger_runs, null);
  assert.equal(a.declared_trigger, 'a failing test');
});

test('shard files make merge moved aside are listed as merged, not as attempts a redo replaced', async (t) => {
  const tree = makeTree();
  t.after(tree.cleanup);
  await runScript(tree, 'steps/freeze.ts', ['--reason', 'v1']);
  const [e0] = heads(tree.file('manifests/ledger.jsonl'));
  const shard = 'layers-main-chromium-shard1of2-x';
  tree.write(`data/excluded/layers/main/${shard}.jsonl`, row(shard, e0!.hash, e0!.at + 1000, 'c1', true) + '\n');
  const redone = 'layers-main-chromium-old';
  tree.write(`data/excluded/layers/main/${redone}.jsonl`, row(redone, e0!.hash, e0!.at + 500, 'c1', true) + '\n');
  tree.write('data/raw/layers/main/layers-main-chromium-merged.jsonl', row('layers-main-chromium-merged', e0!.hash, e0!.at + 1000, 'c1', true) + '\n');
  const reason = (file: string, text: string) => JSON.stringify({ at: new Date(e0!.at + 2000).toISOString(), file: `data/excluded/layers/main/${file}.jsonl`, from: `data/raw/layers/main/${file}.jsonl`, rows: 1, reason: text });
  tree.write('data/excluded/REASONS.jsonl', [reason(shard, 'merged into layers-main-chromium-merged'), reason(redone, 'superseded by a redo: why')].join('\n') + '\n');
  const runs = new Map(deviations().deviations_runs.map((r) => [r.run_id, r.status]));
  assert.equal(runs.get(shard), 'merged');
  assert.equal(runs.get(redone), 'superseded');
});

test('held writes (issue 47): the row after one whose State write was in flight at the app, or due between its read and its reset, is listed; another application, a later forward or no held write is not', () => {
  const forward = [1500, 3000, 6000];
  const t0 = Date.parse('2026-12-03T07:00:00Z');
  const realRow = (at: number, app: string, condition: string, policy: string, extra: Record<string, unknown>) => ({
    run_id: 'r', study: 'layers', arm: 'real-apps', condition_id: condition, policy, browser: { name: 'chromium' }, ledger_head: 'h',
    started_at: new Date(t0 + at).toISOString(), elapsed_ms: 100, app, layer: 'state', severity: 1, vts: false,
    real_app: { writes: [], read_at: 1000, boundary_at: 950 }, ...extra,
  });
  const write = (t: number, reached: number | null, answered: number | null, action = 'answered') => ({ t, action, reached_app: reached, app_answered: answered });
  const rows = [
    // in flight: forwarded, unanswered when its row was made; the next WordPress row is listed, not the MediaWiki one between
    realRow(0, 'wordpress', 'wp-state-3-01', 'verification-aware', { severity: 3, real_app: { writes: [write(300, 6300, null)], read_at: 6290, boundary_at: 6280 } }),
    realRow(8_000, 'mediawiki', 'mw-baseline-0-01', 'selector-only', { layer: 'baseline', severity: 0, real_app: { writes: [write(100, 100, 400, 'pass')], read_at: 900, boundary_at: 890 } }),
    realRow(10_000, 'wordpress', 'wp-verification-1-01', 'selector-only', { layer: 'verification', real_app: { writes: [write(100, null, null, 'dropped')], read_at: 900, boundary_at: 890 } }),
    // due before the reset: 1500 ms after a write at 200 is 1700, after the read (1000) and within the bound after the boundary
    realRow(20_000, 'wordpress', 'wp-state-1-01', 'selector-only', { real_app: { writes: [write(200, null, null)], read_at: 1000, boundary_at: 950 } }),
    realRow(24_000, 'wordpress', 'wp-state-1-01', 'semantic-recovery', { vts: true, real_app: { writes: [write(150, 150, 300, 'pass')], read_at: 1000, boundary_at: 950 } }),
    // a forward due long after the reset (severity 3: 6000 ms) was cancelled by it: nothing listed after this one
    realRow(30_000, 'wordpress', 'wp-state-3-02', 'selector-only', { severity: 3, real_app: { writes: [write(200, null, null)], read_at: 1000, boundary_at: 950 } }),
    realRow(34_000, 'wordpress', 'wp-baseline-0-02', 'selector-only', { layer: 'baseline', severity: 0, vts: true, real_app: { writes: [], read_at: 900, boundary_at: 890 } }),
  ];
  const run = { file: 'data/raw/layers/real-apps/r.jsonl', run_id: 'r', study: 'layers', arm: 'real-apps', browser: 'chromium', status: 'registered' as const, rows: rows as never, first: t0, last: t0 + 40_000, heads: [1] };
  const listed = heldWriteDeviations([run, { ...run, status: 'smoke' as const, file: 'data/excluded/x.jsonl' }], forward);
  assert.deepEqual(listed.map((r) => [r.condition_id, r.policy, r.after_condition, r.held_write, r.vts_without_own_write]), [
    ['wp-verification-1-01', 'selector-only', 'wp-state-3-01', 'in flight', false],
    ['wp-state-1-01', 'semantic-recovery', 'wp-state-1-01', 'due before the reset', false],
  ]);
  // the one outcome a late write could make: the store holding the target with no write of the row's own at the app
  const touched = structuredClone(rows);
  (touched[2] as { vts: boolean }).vts = true;
  assert.equal(heldWriteDeviations([{ ...run, rows: touched as never }], forward)[0]!.vts_without_own_write, true);
});
