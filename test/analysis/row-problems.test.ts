// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The recount's row checks: a trace counted twice is a problem, and what makes a trace the same is
// its whole unit (a pilot row's model, an agent row's agent): two models' plans for one condition
// and prompt are two traces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { paths } from '../../core/paths.ts';
import { readRows, type LayersRow } from '../../analysis/rows.ts';
import { rowProblems } from '../../analysis/recount.ts';

const located = () => readRows<LayersRow>([path.join(paths.queries(), 'layers_pilot.sample.jsonl')]);

test('two models\' rows for the same pilot condition and prompt are two traces; the same model\'s twice is one counted twice', () => {
  const rows = located();
  const planners = rows.filter((l) => l.row.condition_id === 'p1' && l.row.prompt === 'ordinary').map((l) => l.row.model);
  assert.deepEqual(planners.sort(), ['planner-a', 'planner-b'], 'the sample holds the same condition and prompt from two models');
  assert.deepEqual(rowProblems({ layers: rows, evidence: [] }, (f) => path.basename(f)), []);
  const again = rows.find((l) => l.row.model === 'planner-b')!;
  const problems = rowProblems({ layers: [...rows, { ...again, line: 99 }], evidence: [] }, (f) => path.basename(f));
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, /layers_pilot\.sample\.jsonl:99: the same trace as layers_pilot\.sample\.jsonl:\d+ \(layers pilot chromium p1 .* ordinary planner-b\)/);
});
