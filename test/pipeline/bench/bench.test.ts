// make bench on a tiny slice, as a user runs it: results.json has its structure, its flips are the
// flips of the rows it wrote (recomputed here from those rows and the registered ones), and it
// touches nothing registered. No timed assertion: speed is what make bench reports, not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { sha256 } from '../../../core/hash.ts';
import type { TraceRow } from '../../../core/contracts.ts';
import { compareRuns } from '../../../pipeline/steps/compare.ts';
import { runGates, type GateInput } from '../../../pipeline/evidence/gates.ts';

const registeredState = () =>
  ['data/runs.jsonl', 'manifests/ledger.jsonl', 'manifests/data.sha256']
    .map((f) => path.join(codeRoot, f))
    .map((f) => `${f}:${fs.existsSync(f) ? sha256(fs.readFileSync(f)) : '-'}`)
    .concat(['data/raw', 'data/excluded'].map((d) => `${d}:${fs.readdirSync(path.join(codeRoot, d), { recursive: true }).length}`));

test('make bench on a tiny slice: results.json structure, flips from the rows it wrote, nothing registered touched', { timeout: 600_000 }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-bench-'));
  const out = path.join(tmp, 'results.json');
  const scratch = path.join(tmp, 'rows');
  const before = registeredState();
  const ended = await run(path.join(codeRoot, 'bin/rstackbench'), [
    // the evidence slice in Firefox (Arm A's rows), spread over two Firefox processes; the Chromium
    // evidence slice takes the same path with the controlled arm's plan
    'bench', '--slices', 'layers-chromium,evidence-firefox', '--slice-size', '6', '--evidence-size', '2', '--blocks', '2',
    '--workers', '3', '--evidence-firefox-workers', '2', '--evidence-firefox-browsers', '2', '--verifier-actions', '3', '--out', out, '--scratch', scratch,
  ]);
  assert.equal(ended.exitCode, 0, ended.stderr);
  assert.deepEqual(registeredState(), before, 'data/, the run log, the ledger and the manifests are untouched');

  const results = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.equal(results.schema, 'bench-results/1');
  assert.equal(results.mode, 'compare');
  assert.equal(typeof results.ratio, 'number');
  assert.deepEqual(Object.keys(results.ratios), ['layers-chromium', 'evidence-firefox']);
  assert.deepEqual([results.slices['evidence-firefox'].ours.browsers, results.slices['evidence-firefox'].ours.workers], [2, 2]);
  assert.match(results.slices['evidence-firefox'].registered_file, /^data\/raw\/evidence\/arm-a\/evidence-arm-a-firefox-/);
  assert.equal(results.slices['layers-chromium'].gates_failed, undefined, 'no gates on layers rows');
  for (const [id, units] of [['layers-chromium', 6], ['evidence-firefox', 2]] as const) {
    const s = results.slices[id];
    assert.equal(s.units, units);
    for (const h of ['naive', 'ours']) {
      for (const field of ['wall_s', 'traces_per_s', 'overhead_ms_per_trace', 'imposed_ms_mean', 'peak_rss_mb']) assert.equal(typeof s[h][field], 'number', `${id}.${h}.${field}`);
      assert.equal(s[h].traces, units);
      assert.ok(s[h].peak_rss_mb > 0);
    }
    assert.equal(s.naive.workers, 1);
    assert.equal(s.ratio, Math.round((s.naive.wall_s / s.ours.wall_s) * 1000) / 1000);

    // the flips, recomputed from the rows the bench wrote and the registered run
    const naive = readJsonl<TraceRow>(path.join(scratch, `${id}-naive.jsonl`), { schema: 'trace' });
    const ours = readJsonl<TraceRow>(path.join(scratch, `${id}-ours.jsonl`), { schema: 'trace' });
    assert.equal(naive.length, units);
    assert.deepEqual(naive.map((r) => r.condition_id).sort(), ours.map((r) => r.condition_id).sort(), 'both harnesses ran the same units');
    // an evidence slice's rows face the instrumentation gates: each variant's failing rows by gate, as the gates give them on the rows written
    if (id === 'evidence-firefox') {
      const failing = (rows: TraceRow[]) => Object.fromEntries(runGates(rows as unknown as GateInput[]).filter((g) => g.failed.length).map((g) => [g.id, g.failed]));
      assert.deepEqual(s.gates_failed, { naive: failing(naive), ours: failing(ours) });
      assert.ok(runGates(ours as unknown as GateInput[]).some((g) => g.checked > 0), 'the gates checked the rows');
    }
    const c = compareRuns(naive, ours);
    assert.equal(c.same + c.flips.length + c.flaggedFlips, units);
    assert.deepEqual(s.flips['naive-vs-ours'], { same: c.same, flips: c.flips.length, flagged_flips: c.flaggedFlips, missing: 0 });
    const registered = readJsonl<TraceRow>(path.join(codeRoot, s.registered_file), { schema: 'trace' });
    const r = compareRuns(ours, registered);
    assert.equal(s.flips['ours-vs-registered'].flips, r.flips.length);
    assert.equal(s.flips['ours-vs-registered'].same + r.flips.length + r.flaggedFlips, units, 'every bench unit has its registered row');
  }
  // the verifier's overhead per action: three saves each way, every verified one closed
  const v = results.verifier_overhead;
  assert.equal(v.actions, 3);
  assert.equal(v.browser.name, 'chromium');
  assert.equal(v.not_closed, 0);
  for (const k of ['bare', 'verified', 'reread', 'retry', 'check', 'overhead', 'overhead_reread', 'overhead_retry']) {
    assert.equal(v[k].n, 3, k);
    assert.equal(typeof v[k].median_ms, 'number', k);
    assert.equal(typeof v[k].p95_ms, 'number', k);
    assert.ok(v[k].p95_ms >= v[k].median_ms, k);
  }
  assert.match(ended.stdout, /overhead per action: median -?[\d.]+ ms, p95 -?[\d.]+ ms/);
  assert.match(ended.stdout, /retry pattern \(re-read, closed at the first attempt\): median [\d.]+ ms, p95 [\d.]+ ms, overhead median -?[\d.]+ ms, p95 -?[\d.]+ ms; one store read before a repeat: median [\d.]+ ms/);
  assert.equal(results.flips, new Set(results.flipped_rows.map((f: { slice: string; unit: string }) => `${f.slice}|${f.unit}`)).size);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('bench: a bad flag is a usage error (exit 2) and writes nothing', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-bench-'));
  const ended = await run(path.join(codeRoot, 'bin/rstackbench'), ['bench', '--slices', 'layers-safari', '--out', path.join(tmp, 'r.json')]);
  assert.equal(ended.exitCode, 2);
  assert.match(ended.stderr, /unknown slice "layers-safari"/);
  assert.equal(fs.existsSync(path.join(tmp, 'r.json')), false);
  fs.rmSync(tmp, { recursive: true, force: true });
});
