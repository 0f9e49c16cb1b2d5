// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The reanalysis end to end on a throw-away tree (RSTACK_ROOT): agreement, determinism, and the
// failures it exists for: a planted disagreement between SQL and recount, a row that breaks
// FC = AS and not VTS, a recorded verdict its events do not produce.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { codeRoot, paths } from '../../core/paths.ts';
import { reanalyze } from '../../analysis/reanalyze.ts';
import { verdictRegistry, type VerdictFn } from '../../analysis/verdicts.ts';
import type { EvidenceRow, TimelineEvent } from '../../analysis/rows.ts';

let root: string;
const sample = (name: string) => fs.readFileSync(path.join(codeRoot, 'analysis', 'queries', `${name}.sample.jsonl`), 'utf8');

// a tiny local registry of evidence policies; the real ones come from verifier/ and core/evidence at merge
const firstOf = (pred: (e: TimelineEvent) => boolean): VerdictFn => (events) => {
  const hit = events.find(pred);
  return { accept: hit !== undefined, latency_ms: hit ? hit.t_ms : null };
};
const localPolicies = {
  'dom-first': firstOf((e) => e.source === 'dom' && e.type === 'mutation'),
  'network-done': firstOf((e) => e.source === 'network' && e.type === 'loadingFinished' && (e.status ?? 0) < 400),
};
const registry = verdictRegistry({ all: localPolicies });

function evidenceRow(i: number, truth: 'success' | 'failure', events: TimelineEvent[], verdictNames = Object.keys(localPolicies)): EvidenceRow {
  const verdicts = Object.fromEntries(verdictNames.map((name) => [name, localPolicies[name as keyof typeof localPolicies](events)]));
  return {
    schema: 'trace/1', study: 'evidence', arm: 'controlled', run_id: 'run-1', condition_id: `cond-${i}`, policy: 'observer',
    browser: { name: 'chromium', version: '140.0' }, ledger_head: 'b'.repeat(64), started_at: '2026-01-01T00:00:00.000Z',
    elapsed_ms: 300, scenario: truth === 'success' ? 'success' : 'http-500', delay_ms: 50, rep: 0, truth, events, verdicts,
  };
}
const okEvents: TimelineEvent[] = [
  { t_ms: 0, source: 'runner', type: 'dispatch' },
  { t_ms: 4, source: 'dom', type: 'mutation' },
  { t_ms: 60, source: 'network', type: 'loadingFinished', request_id: 'r1', url: '/save', status: 200 },
];
const failEvents: TimelineEvent[] = [
  { t_ms: 0, source: 'runner', type: 'dispatch' },
  { t_ms: 5, source: 'dom', type: 'mutation' },
  { t_ms: 70, source: 'network', type: 'loadingFinished', request_id: 'r1', url: '/save', status: 500 },
];
const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r) + '\n').join('');

function writeTree(dir: string, evidence: EvidenceRow[], layersText = sample('layers_overall') + sample('layers_paired').replaceAll('"run_id":"main-chromium"', '"run_id":"paired"').replaceAll('"condition_id":"c', '"condition_id":"pc')) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'data', 'raw', 'layers', 'main'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'data', 'raw', 'evidence', 'controlled'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'data', 'raw', 'layers', 'main', 'run-1.jsonl'), layersText);
  fs.writeFileSync(path.join(dir, 'data', 'raw', 'evidence', 'controlled', 'run-1.jsonl'), lines(evidence));
}

const goodEvidence = () => [evidenceRow(1, 'success', okEvents), evidenceRow(2, 'failure', failEvents), evidenceRow(3, 'success', okEvents)];

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-reanalyze-'));
  process.env.RSTACK_ROOT = root;
});
after(() => {
  delete process.env.RSTACK_ROOT;
  fs.rmSync(root, { recursive: true, force: true });
});

test('over an empty data/raw every table is written, empty, with no problem', async () => {
  writeTree(root, [], '');
  fs.rmSync(path.join(root, 'data'), { recursive: true, force: true });
  const result = await reanalyze({ registry });
  assert.deepEqual(result.problems, []);
  assert.equal(result.read.layersRows + result.read.evidenceRows, 0);
  const overall = JSON.parse(fs.readFileSync(path.join(paths.analysisOut(), 'layers_overall.json'), 'utf8'));
  assert.deepEqual(overall.rows, []);
  assert.ok(overall.columns.includes('vts_low'));
});

test('SQL and recount agree on a sample tree; the tables carry statistics; a rerun is byte-identical', async () => {
  writeTree(root, goodEvidence());
  const first = await reanalyze({ registry });
  assert.deepEqual(first.problems, []);
  assert.ok(first.cellsCompared > 50, `only ${first.cellsCompared} cells compared`);
  assert.equal(first.verdictsRechecked, 6);
  const overall = first.tables.layers_overall!;
  const sel = overall.find((r) => r.browser === 'chromium' && r.policy === 'selector-only')!;
  // layers_overall sample: 3 main rows; layers_paired sample: 4 chromium selector-only rows (2 with VTS)
  assert.equal(sel.n, 7);
  assert.equal(sel.vts_n, 3);
  assert.equal(sel.vts_rate, Number((3 / 7).toFixed(4)));
  assert.ok((sel.vts_low as number) < (sel.vts_rate as number) && (sel.vts_rate as number) < (sel.vts_high as number));
  const confusion = first.tables.evidence_confusion!.find((r) => r.policy === 'network-done')!;
  assert.equal(confusion.false_accept_n, 0);
  assert.equal(confusion.false_reject_n, 0);
  const dom = first.tables.evidence_confusion!.find((r) => r.policy === 'dom-first')!;
  assert.equal(dom.false_accept_n, 1);
  assert.equal(dom.false_accept_rate, 1);

  const again = path.join(root, 'again');
  const second = await reanalyze({ registry, outDir: again });
  assert.deepEqual(second.written, first.written);
  for (const name of first.written) {
    assert.ok(fs.readFileSync(path.join(paths.analysisOut(), name)).equals(fs.readFileSync(path.join(again, name))), `${name} differs on a rerun`);
  }
});

test('a planted disagreement between the SQL and the recount fails, naming table, row and column, and writes nothing', async () => {
  writeTree(root, goodEvidence());
  const queries = path.join(root, 'queries');
  fs.cpSync(paths.queries(), queries, { recursive: true });
  const file = path.join(queries, 'layers_overall.sql');
  const sql = fs.readFileSync(file, 'utf8');
  // the plant: the SQL counts apparent success where it should count VTS
  const planted = sql.replace('outcome_counts(apparent_success, vts, false_completion)', 'outcome_counts(apparent_success, apparent_success, false_completion)');
  assert.notEqual(planted, sql, 'the plant took');
  fs.writeFileSync(file, planted);
  const out = path.join(root, 'planted-out');
  const result = await reanalyze({ registry, queriesDir: queries, outDir: out });
  assert.ok(result.problems.some((p) => /^table layers_overall, row browser=chromium policy=selector-only, column vts_n: SQL \d+, recount 3$/.test(p)), result.problems.join('\n'));
  assert.deepEqual(result.written, []);
  assert.equal(fs.existsSync(out), false);
});

test('a row whose recorded false_completion breaks FC = AS and not VTS fails, naming its file and line', async () => {
  const text = sample('layers_overall').split('\n');
  text[0] = text[0]!.replace('"false_completion":false', '"false_completion":true'); // AS true, VTS true
  writeTree(root, goodEvidence(), text.join('\n'));
  const result = await reanalyze({ registry, write: false });
  assert.ok(result.problems.some((p) => p.startsWith('data/raw/layers/main/run-1.jsonl:1: false_completion is true')), result.problems.join('\n'));
  assert.ok(result.problems.some((p) => /table layers_overall, row browser=chromium policy=selector-only, column fc_n: SQL 2, recount 1/.test(p)), result.problems.join('\n'));
});

test('a recorded verdict its events do not produce fails, naming file, line and policy; so does an unregistered policy', async () => {
  const rows = goodEvidence();
  rows[1]!.verdicts['network-done'] = { accept: true, latency_ms: 70 }; // the 500 was accepted: not what the function says
  writeTree(root, rows);
  const result = await reanalyze({ registry, write: false });
  assert.ok(result.problems.includes('data/raw/evidence/controlled/run-1.jsonl:2: policy network-done recorded accept=true, latency_ms=70; recomputed from events: accept=false, latency_ms=null'), result.problems.join('\n'));
  const check = result.tables.evidence_verdict_check!.find((r) => r.policy === 'network-done')!;
  assert.equal(check.status, 'mismatch');
  assert.equal(check.accept_mismatch_n, 1);

  const unknown = await reanalyze({ registry: verdictRegistry({ all: { 'dom-first': localPolicies['dom-first'] } }), write: false });
  assert.ok(unknown.problems.some((p) => p.startsWith('evidence policy network-done (arm controlled, chromium): no verdict function registered')), unknown.problems.join('\n'));
});

test('a trace counted twice fails: paired comparisons need one row per condition', async () => {
  writeTree(root, [...goodEvidence(), evidenceRow(1, 'success', okEvents)]);
  const result = await reanalyze({ registry, write: false });
  assert.ok(result.problems.some((p) => /run-1\.jsonl:4: the same trace as data\/raw\/evidence\/controlled\/run-1\.jsonl:1/.test(p)), result.problems.join('\n'));
});

test('make reanalyze exits nonzero and names the cell when recount and SQL disagree', () => {
  const text = sample('layers_overall').split('\n');
  text[0] = text[0]!.replace('"false_completion":false', '"false_completion":true');
  writeTree(root, [], text.join('\n'));
  let status = 0;
  let stderr = '';
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(codeRoot, 'pipeline', 'steps', 'reanalyze.ts')], { env: { ...process.env, RSTACK_ROOT: root }, stdio: 'pipe', cwd: codeRoot });
  } catch (error) {
    status = (error as { status: number }).status;
    stderr = String((error as { stderr: Buffer }).stderr);
  }
  assert.equal(status, 1);
  assert.match(stderr, /table layers_overall, row browser=chromium policy=selector-only, column fc_n: SQL 2, recount 1/);
  assert.match(stderr, /reanalysis failed/);
});
