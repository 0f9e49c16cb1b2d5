// The planning pilot's answers that gave no plan, counted per model and prompt beside Table V
// (prereg/layers-pilot-amendment-1.md, item 3): the source paper's "attempts that failed before
// producing a valid plan".
//
//   data/plans/<run>.jsonl            (the frozen plans)           ─┐
//   data/excluded/pilot/<run>.jsonl   (every answer with no plan,  ─┴─▶ layers_pilot_excluded
//                                      a re-ask a line of its own)       per model × prompt
//
// A condition counts as excluded when the record holds an answer for it and no plan: asked again,
// a greedy model gives the same answer, and both lines are counted as answers.
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../core/paths.ts';
import { readJsonl } from '../core/jsonl.ts';
import type { ExcludedAnswer, PlanLine } from '../core/contracts.ts';
import type { TableRow } from './tables.ts';

/** What the count reads of a plan line and of an excluded answer. */
// (the schemas leave usage and model_identity open objects: these are the fields the server writes)
interface Counted {
  condition_id: string; prompt: string; model: string | null;
  reason?: string; status?: number | null;
  usage?: { completion_tokens?: number } | null;
  model_identity?: { identity?: { max_tokens?: number } } | null;
}

/** Every line of every run's file in dir, each validated against its schema (core/jsonl.ts). */
function readAll<T>(dir: string, schema: 'pilot-plan' | 'pilot-excluded'): T[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().flatMap((f) => readJsonl<T>(path.join(dir, f), { schema }));
}

/** What kind of failure a recorded reason names (pipeline/pilot/client.ts writes them). */
export function exclusionKind(line: Pick<Counted, 'reason' | 'status'>): 'not_json' | 'not_plan' | 'other' {
  if (line.status === 200 && line.reason?.startsWith('the answer is not JSON')) return 'not_json';
  if (line.status === 200 && line.reason?.startsWith('the answer is not a valid plan')) return 'not_plan';
  return 'other';
}

/** The record's plans (data/plans) and excluded answers (data/excluded/pilot), counted. */
export function pilotExcluded(): TableRow[] {
  return countExcluded(readAll<PlanLine & Counted>(paths.plans(), 'pilot-plan'), readAll<ExcludedAnswer & Counted>(path.join(paths.excluded(), 'pilot'), 'pilot-excluded'));
}

/** Per model and prompt: the conditions asked, those with a plan, those left without one, and every excluded answer by kind. */
export function countExcluded(plans: readonly Counted[], excluded: readonly Counted[]): TableRow[] {
  const key = (l: Counted) => JSON.stringify([l.model, l.prompt]);
  const keys = [...new Set([...plans, ...excluded].map(key))].sort();
  return keys.map((k) => {
    const [model, prompt] = JSON.parse(k) as [string, string];
    const planned = new Set(plans.filter((l) => key(l) === k).map((l) => l.condition_id));
    const answers = excluded.filter((l) => key(l) === k);
    const unplanned = answers.filter((l) => !planned.has(l.condition_id));
    const limit = (l: Counted) => l.model_identity?.identity?.max_tokens;
    return {
      model,
      prompt,
      conditions_n: new Set([...planned, ...answers.map((l) => l.condition_id)]).size,
      plans_n: planned.size,
      excluded_conditions_n: new Set(unplanned.map((l) => l.condition_id)).size,
      excluded_answers_n: answers.length,
      not_json_n: answers.filter((l) => exclusionKind(l) === 'not_json').length,
      not_plan_n: answers.filter((l) => exclusionKind(l) === 'not_plan').length,
      other_n: answers.filter((l) => exclusionKind(l) === 'other').length,
      at_answer_limit_n: answers.filter((l) => limit(l) !== undefined && l.usage?.completion_tokens !== undefined && l.usage.completion_tokens >= limit(l)!).length,
    };
  });
}
