// make bench's measurement of the report (ARGS=--report), as a user runs it: its results file has
// its structure and counts the traces the record holds, the synthetic index is the factor times
// larger, and nothing registered is touched. No timed assertion: speed is what it reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';
import { sha256 } from '../../../core/hash.ts';
import { readRecord } from '../../../report-src/record.ts';

const registeredState = () =>
  ['data/runs.jsonl', 'manifests/ledger.jsonl', 'manifests/data.sha256', 'bench/report-results.json']
    .map((f) => path.join(codeRoot, f))
    .map((f) => `${f}:${fs.existsSync(f) ? sha256(fs.readFileSync(f)) : '-'}`)
    .concat(['data/raw', 'data/excluded', 'analysis/out'].map((d) => `${d}:${fs.readdirSync(path.join(codeRoot, d), { recursive: true }).length}`));

test('bench --report: generation, size and the page in Chromium, for the record and ten times it', { timeout: 300_000 }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-bench-report-'));
  const out = path.join(tmp, 'report-results.json');
  const before = registeredState();
  const ended = await run(path.join(codeRoot, 'bin/rstackbench'), ['bench', '--report', '--out', out, '--scratch', path.join(tmp, 'scratch')]);
  assert.equal(ended.exitCode, 0, ended.stderr);
  assert.deepEqual(registeredState(), before, 'data/, analysis/out, the run log, the ledger, the manifests and bench/report-results.json are untouched');
  const r = JSON.parse(fs.readFileSync(out, 'utf8'));
  const record = readRecord();
  const traces = record.runs.reduce((s, run) => s + run.rows.length, 0);
  assert.equal(r.traces, traces);
  assert.equal(r.registered, record.runs.filter((run) => run.status === 'registered').reduce((s, run) => s + run.rows.length, 0));
  assert.equal(r.filtered_over, traces, 'the filter was measured over every trace');
  assert.equal(r.scaled.traces, traces * r.scaled.factor);
  for (const k of ['generation_ms', 'load_ms', 'filter_ms', 'open_trace_ms']) {
    assert.equal(r[k].length, r.repetitions, k);
    assert.ok(r[k].every((x: unknown) => typeof x === 'number' && x > 0), k);
  }
  assert.ok(r.opening_page_bytes > 0 && r.opening_page_bytes < r.bytes);
  assert.ok(r.largest_shard_bytes <= r.bytes);
  assert.match(ended.stdout, /report +generation \d+ ms/);
  fs.rmSync(tmp, { recursive: true, force: true });
});
