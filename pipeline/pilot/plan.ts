// A pilot plan (schemas/plan.schema.json): its types, and the one check every plan passes before it
// is frozen or executed — ajv against the schema, then the rules a schema cannot say (a retry jumps
// back to an earlier step). Problems name the step and field, so an excluded answer says why.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { paths } from '../../core/paths.ts';
import { describeError, fieldOf } from '../../core/validate.ts';

import type { Plan, Step } from '../../core/contracts.ts';

// the plan's shape is schemas/plan.schema.json (core/contracts.ts)
export type { Plan, Step } from '../../core/contracts.ts';
export type Action = Step['action'];
export const actions: readonly Action[] = ['navigate', 'wait', 'select', 'fill', 'click', 'check_text', 'read_summary', 'reload', 'stop'];


/** The schema as a JSON object: sent to servers that constrain their output with it. */
export function planSchema(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(paths.schemas(), 'plan.schema.json'), 'utf8'));
}

let compiled: { plan: ValidateFunction; step: Map<string, ValidateFunction> } | undefined;
function validators() {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addSchema(planSchema());
    compiled = {
      plan: ajv.getSchema('plan.schema.json')!,
      step: new Map(actions.map((a) => [a, ajv.getSchema(`plan.schema.json#/$defs/${a}`)!])),
    };
  }
  return compiled;
}

function describe(e: ErrorObject, prefix: string): string {
  return `${[prefix, fieldOf(e)].filter(Boolean).join('.') || '(plan)'} ${describeError(e)}`;
}

/** Every problem of a candidate plan; [] when it is a valid plan. */
export function planProblems(value: unknown): string[] {
  const { plan, step } = validators();
  if (plan(value)) return semanticProblems(value as Plan);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['the plan must be a JSON object with a "steps" list'];
  const problems: string[] = [];
  const v = value as Record<string, unknown>;
  for (const e of plan.errors ?? []) {
    // step errors are reported per step below, against the one branch the step's action names
    if (e.instancePath.startsWith('/steps/')) continue;
    problems.push(describe(e, ''));
  }
  if (Array.isArray(v.steps)) {
    v.steps.forEach((s, i) => {
      const action = (s as { action?: unknown } | null)?.action;
      if (typeof action !== 'string' || !actions.includes(action as Action)) {
        problems.push(`steps[${i}].action ${action === undefined ? 'is missing' : `${JSON.stringify(action)} is not an action`} (one of ${actions.join(', ')})`);
        return;
      }
      const fn = step.get(action)!;
      if (!fn(s)) for (const e of fn.errors ?? []) problems.push(describe(e, `steps[${i}]`));
    });
  }
  return problems.length ? problems : ['the plan does not match schemas/plan.schema.json'];
}

function semanticProblems(plan: Plan): string[] {
  const problems: string[] = [];
  plan.steps.forEach((s, i) => {
    if (s.action !== 'check_text' && s.action !== 'read_summary') return;
    if (s.on_fail === 'retry') {
      if (s.retry_from === undefined) problems.push(`steps[${i}].retry_from is missing (on_fail is retry)`);
      else if (s.retry_from >= i) problems.push(`steps[${i}].retry_from must name an earlier step (< ${i}), not ${s.retry_from}`);
    } else if (s.retry_from !== undefined || s.max_retries !== undefined) {
      problems.push(`steps[${i}].retry_from and max_retries apply only when on_fail is retry`);
    }
  });
  return problems;
}
