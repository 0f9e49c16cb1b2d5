// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// layers_pilot_excluded: the pilot's answers that gave no plan, per model and prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { countExcluded, exclusionKind, pilotExcluded } from '../../analysis/pilot-excluded.ts';
import { paths } from '../../core/paths.ts';

const identity = (maxTokens: number) => ({ identity: { max_tokens: maxTokens } });
const plan = (model: string, condition: string, prompt: string) => ({ condition_id: condition, prompt, model, usage: { completion_tokens: 900 }, model_identity: identity(2048) });
const answer = (model: string, condition: string, prompt: string, reason: string, status: number | null, tokens: number | null) =>
  ({ condition_id: condition, prompt, model, reason, status, usage: tokens === null ? null : { completion_tokens: tokens }, model_identity: identity(2048) });

test('exclusion kinds follow the reasons the client writes', () => {
  assert.equal(exclusionKind({ status: 200, reason: 'the answer is not JSON: Unterminated string' }), 'not_json');
  assert.equal(exclusionKind({ status: 200, reason: 'the answer is not a valid plan: steps[0].timeout_ms must be <= 5000' }), 'not_plan');
  assert.equal(exclusionKind({ status: 500, reason: 'HTTP 500 from http://127.0.0.1:1/v1/chat/completions' }), 'other');
  assert.equal(exclusionKind({ status: null, reason: 'the call failed: ECONNREFUSED' }), 'other');
});

test('per model and prompt: plans, excluded conditions, every answer (a re-ask too), kinds and the answer limit', () => {
  const plans = [plan('m1', 'c1', 'ordinary'), plan('m1', 'c2', 'ordinary'), plan('m1', 'c1', 'reliability'), plan('m2', 'c1', 'ordinary')];
  const excluded = [
    answer('m1', 'c3', 'ordinary', 'the answer is not JSON: Unterminated string in JSON at position 9', 200, 2048),
    answer('m1', 'c3', 'ordinary', 'the answer is not JSON: Unterminated string in JSON at position 9', 200, 2048),
    answer('m1', 'c2', 'reliability', 'the answer is not a valid plan: steps[0].max_retries must be <= 5', 200, 300),
    // an answer that failed once and gave a plan when asked again: an answer, not an excluded condition
    answer('m1', 'c2', 'ordinary', 'HTTP 503 from http://127.0.0.1:1/v1/chat/completions', 503, null),
  ];
  const rows = countExcluded(plans, excluded);
  assert.deepEqual(rows.map((r) => [r.model, r.prompt]), [['m1', 'ordinary'], ['m1', 'reliability'], ['m2', 'ordinary']]);
  assert.deepEqual(rows[0], { model: 'm1', prompt: 'ordinary', conditions_n: 3, plans_n: 2, excluded_conditions_n: 1, excluded_answers_n: 3, not_json_n: 2, not_plan_n: 0, other_n: 1, at_answer_limit_n: 2 });
  assert.deepEqual(rows[1], { model: 'm1', prompt: 'reliability', conditions_n: 2, plans_n: 1, excluded_conditions_n: 1, excluded_answers_n: 1, not_json_n: 0, not_plan_n: 1, other_n: 0, at_answer_limit_n: 0 });
  assert.deepEqual(rows[2], { model: 'm2', prompt: 'ordinary', conditions_n: 1, plans_n: 1, excluded_conditions_n: 0, excluded_answers_n: 0, not_json_n: 0, not_plan_n: 0, other_n: 0, at_answer_limit_n: 0 });
});

test('over the record: each model\'s plans per prompt are its plan file\'s lines', () => {
  const rows = pilotExcluded();
  for (const file of fs.existsSync(paths.plans()) ? fs.readdirSync(paths.plans()).filter((f) => f.endsWith('.jsonl')) : []) {
    const lines = fs.readFileSync(path.join(paths.plans(), file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { model: string; prompt: string });
    for (const prompt of new Set(lines.map((l) => l.prompt))) {
      const model = lines[0]!.model;
      const row = rows.find((r) => r.model === model && r.prompt === prompt);
      assert.ok(row, `${file}: a row for ${model} ${prompt}`);
      assert.equal(row.plans_n, lines.filter((l) => l.prompt === prompt).length, `${file} ${prompt}`);
    }
  }
});
