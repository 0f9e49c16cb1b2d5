// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// One scorer for every arm (issue 47): every registered layers row, of every arm (small apps main,
// horizon, verified, the agents, the pilot, real apps, transport), scored again from what the row
// keeps by pipeline/layers/scoring.ts (and core/verdict.ts) gives the verdict the row holds: AS, VTS and the timing flag
// from its moments where it keeps them, the false completions from AS, VTS and its claim by its
// arm's rule, ended done and false abandonment consistent with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonl } from '../../../core/jsonl.ts';
import { paths } from '../../../core/paths.ts';
import { rescoreRow, type ScoredRow } from '../../../pipeline/layers/scoring.ts';
import { falseAbandonment } from '../../../core/verdict.ts';

type Row = ScoredRow & { run_id: string; condition_id: string; policy: string };

const root = path.join(paths.root(), 'data', 'raw', 'layers');
const runFiles = fs.readdirSync(root).flatMap((arm) => fs.readdirSync(path.join(root, arm)).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(root, arm, f)));

/** Every disagreement between a row and its re-scoring, as `run condition policy: field row → rescored`. */
function disagreements(row: Row): string[] {
  const out: string[] = [];
  const label = `${row.run_id} ${row.condition_id} ${row.policy}`;
  const again = rescoreRow(row);
  const differ = (field: string, held: unknown, got: unknown) => { if (held !== got) out.push(`${label}: ${field} ${String(held)} → ${String(got)}`); };
  differ('apparent_success', row.apparent_success, again.verdict.apparent_success);
  differ('vts', row.vts, again.verdict.vts);
  differ('false_completion', row.false_completion, again.verdict.false_completion);
  if (row.claim_false_completion !== undefined || again.verdict.claim_false_completion !== undefined) differ('claim_false_completion', row.claim_false_completion, again.verdict.claim_false_completion);
  if (again.timingSensitive !== null) differ('timing_sensitive', row.timing_sensitive, again.timingSensitive);
  if (row.ended_done !== undefined) {
    differ('false_abandonment', row.false_abandonment, falseAbandonment(row.ended_done, row.vts));
    if (row.claim) differ('ended_done', row.ended_done, row.claim.done);
    // a reference policy without a claim ended done at least when the page showed success
    else if (row.apparent_success && !row.ended_done) out.push(`${label}: ended_done false with the success indication shown`);
  }
  return out;
}

test('every registered layers row re-scores to the verdict it holds, by the one scoring module', () => {
  assert.ok(runFiles.length >= 15, `the registered layers runs are there (${runFiles.length} run files)`);
  const from = { moments: 0, 'real-app': 0, 'verdict-only': 0 };
  const arms = new Set<string>();
  const problems: string[] = [];
  let n = 0;
  for (const file of runFiles) {
    for (const row of readJsonl<Row>(file)) {
      n++;
      arms.add(row.arm);
      from[rescoreRow(row).from]++;
      problems.push(...disagreements(row));
    }
  }
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} of ${n} rows disagree with their re-scoring`);
  for (const arm of ['main', 'horizon', 'verified', 'claims', 'agent', 'pilot', 'real-apps', 'transport']) assert.ok(arms.has(arm), `rows of arm ${arm} were re-scored`);
  // the timing flag and AS/VTS were recomputed, not only the false completions
  assert.ok(from.moments > 1000 && from['real-app'] > 1000, `re-scored from moments ${from.moments}, from the real apps' record ${from['real-app']}`);
});

test('a row that says otherwise than its record is caught: the re-scoring reads the record, not the verdict', () => {
  const realApps = runFiles.find((f) => f.includes(`${path.sep}real-apps${path.sep}`) && f.includes('-v2-'))!;
  const row = readJsonl<Row>(realApps).find((r) => r.real_app && r.real_app.success_shown !== null && r.apparent_success && r.vts && r.claim?.done === true)!;
  assert.ok(row, 'a real-apps v2 row with the notice shown, the state stored and a claim of done');
  assert.deepEqual(disagreements(row), []);
  // the notice after the boundary: AS, and with it FC by the page, change; the row still says AS
  const late = { ...row, real_app: { ...row.real_app!, success_shown: row.real_app!.boundary_at + 1 } };
  assert.ok(disagreements(late).some((d) => d.includes('apparent_success true → false')), disagreements(late).join('\n'));
  // a store that lacks the target: VTS, and the claim's false completion, change
  const lacking = { ...row, persisted: { value: `${String(row.target.value)} (not it)` } };
  assert.ok(disagreements(lacking).some((d) => d.includes('vts true → false')), disagreements(lacking).join('\n'));
  assert.ok(disagreements(lacking).some((d) => d.includes('claim_false_completion false → true')), disagreements(lacking).join('\n'));
  // a small-apps row under the speed rule: a commit moved past the boundary changes VTS
  const verified = runFiles.find((f) => f.includes(`${path.sep}verified${path.sep}`))!;
  const small = readJsonl<Row>(verified).find((r) => r.moments && r.vts && r.moments.commits.length === 1 && r.moments.confirmed === null)!;
  assert.ok(small, 'a verified-arm row with one commit, not read back');
  assert.deepEqual(disagreements(small), []);
  const moved = { ...small, moments: { ...small.moments!, commits: [{ ...small.moments!.commits[0]!, at: 1e9 }] } };
  assert.ok(disagreements(moved).some((d) => d.includes('vts true → false')), disagreements(moved).join('\n'));
});
