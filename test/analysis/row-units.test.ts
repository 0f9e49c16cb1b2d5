// shares the machine: no browser; pure functions, nothing timed.
// The reanalysis counts each trace once (analysis/recount.ts rowProblems): a real-apps row of
// version 2 is another unit than version 1's of the same condition id, two of one version are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { rowProblems } from '../../analysis/recount.ts';
import type { LayersRow } from '../../analysis/rows.ts';

const sample = path.join(import.meta.dirname, '../../analysis/queries/layers_real_apps_v2.sample.jsonl');
const rows = fs.readFileSync(sample, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LayersRow);
const v2 = rows.find((r) => r.arm_version === 2 && r.condition_id === 'wordpress-general-title-baseline-0-01')!;
const at = (row: LayersRow, line: number) => ({ file: 'run.jsonl', line, row });
const problemsOf = (list: LayersRow[]) => rowProblems({ layers: list.map((r, i) => at(r, i + 1)), evidence: [] } as never, (f) => f).filter((p) => /counted once/.test(p));

test('a version-2 real-apps row and a version-1 row of the same condition and policy are two units; two version-2 rows are one counted twice', () => {
  const { arm_version: _v, claim: _c, ended_done: _e, false_abandonment: _f, claim_false_completion: _cf, ...v1 } = v2;
  assert.deepEqual(problemsOf([v1 as LayersRow, v2]), []);
  assert.equal(problemsOf([v2, { ...v2 }]).length, 1);
  assert.equal(problemsOf([v1 as LayersRow, { ...v1 } as LayersRow]).length, 1);
});
