// The pilot's plan interpreter: an Agent (pipeline/agents/contract.ts) that executes one frozen plan
// step by step, deterministically, and claims what the plan says. It never sees the condition: only
// the task as a user gives it (instruction, start URL) and the page.
//
//   plan (validated) ─▶ for each step: find the control by what a user sees ─▶ act / wait / check
//                     ─▶ a failed check: go on, stop (claim not done), or jump back (bounded)
//                     ─▶ AgentResult { claim, error, actions, retries } + the executed steps and their time
//
// Bounds beyond the schema's: at most MAX_EXECUTED_STEPS steps run (jumps included) and no step
// starts after MAX_PLAN_MS. Reaching the end of the plan claims done, as a plan that did not stop
// early says it finished. A control that cannot be found or used ends the run with an error and no claim.
import { performance } from 'node:perf_hooks';
import type { Locator, Page } from 'playwright-core';
import { requirePage, type Agent, type AgentResult, type AgentSession } from '../agents/contract.ts';
import { Actor } from '../layers/policies/actor.ts';
import { planProblems, type Action, type Plan, type Step } from './plan.ts';
import { firstLine } from '../../core/errors.ts';
import type { LayersRow } from '../../core/contracts.ts';

export const MAX_EXECUTED_STEPS = 120;
export const MAX_PLAN_MS = 60_000;
/** the containers a scope names: a card, a form, a list item, a dialog, a group */
const REGIONS = 'section, form, li, article, fieldset, [role=dialog], [role=group], [role=region]';
/** where a page shows its saved-state summary */
const SUMMARY = '.summary, #summary';
const POLL_MS = 50;

/** One executed step as the row records it (schemas/trace.schema.json: index, ok, start and duration), of a plan's action. */
export type ExecutedStep = NonNullable<LayersRow['executed']>[number] & { action: Action };

export interface PlanRunResult extends AgentResult {
  actions: number;
  retries: number;
  /** how many steps ran, counting each run of a step jumped back to */
  steps: number;
  executed: ExecutedStep[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function region(page: Page, scope: string | undefined): Locator {
  if (!scope) return page.locator('body');
  return page.locator(REGIONS).filter({ has: page.getByText(scope, { exact: true }) }).first();
}

/** a control by its role and accessible name (what a screen reader announces), exactly */
function control(within: Locator, roles: ('combobox' | 'listbox' | 'textbox' | 'searchbox' | 'spinbutton')[], name: string): Locator {
  return roles.map((r) => within.getByRole(r, { name, exact: true })).reduce((a, b) => a.or(b));
}

/** Polls until fn holds or timeoutMs passes (checked at least once). */
async function holdsWithin(fn: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return true;
    if (performance.now() >= until) return false;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, until - performance.now()))));
  }
}

async function summaryText(page: Page, scope: string | undefined): Promise<string> {
  let summary = region(page, scope).locator(SUMMARY).first();
  if (scope && (await summary.count()) === 0) summary = page.locator(SUMMARY).first();
  return (await summary.isVisible()) ? ((await summary.textContent()) ?? '') : '';
}

/** An Agent whose result also carries the executed steps. */
export interface PlanAgent extends Agent { run(session: AgentSession): Promise<PlanRunResult> }

export function planAgent(plan: Plan, name = 'plan-interpreter'): PlanAgent {
  const problems = planProblems(plan);
  if (problems.length) throw new Error(`not a valid plan: ${problems.join('; ')}`);
  return {
    name,
    async run(session): Promise<PlanRunResult> {
      const { task } = session;
      const page = requirePage(session, name);
      const actor = new Actor(page);
      const origin = new URL(task.start_url).origin;
      const executed: ExecutedStep[] = [];
      const jumps = new Map<number, number>();
      const t0 = performance.now();
      const result = (claim: PlanRunResult['claim'], error: string | null): PlanRunResult =>
        ({ claim, error, actions: actor.actions, retries: actor.retries, steps: executed.length, executed });

      let i = 0;
      while (i < plan.steps.length) {
        if (executed.length >= MAX_EXECUTED_STEPS) return result(null, `the plan ran ${MAX_EXECUTED_STEPS} steps without ending`);
        if (performance.now() - t0 > MAX_PLAN_MS) return result(null, `the plan ran longer than ${MAX_PLAN_MS / 1000} s`);
        const step: Step = plan.steps[i]!;
        const start = performance.now();
        const record = (ok: boolean, note?: string) =>
          executed.push({ index: i, action: step.action, ok, t_ms: round1(start - t0), ms: round1(performance.now() - start), ...(note ? { note } : {}) });
        let holds = true;
        let note: string | undefined;
        try {
          switch (step.action) {
            case 'navigate': {
              const url = new URL(step.path, origin);
              if (url.origin !== origin) throw new Error(`navigate leaves the start page's origin: ${step.path}`);
              await page.goto(url.href, { waitUntil: 'load' });
              break;
            }
            case 'wait': await page.waitForTimeout(step.ms); break;
            case 'reload': await page.reload({ waitUntil: 'load' }); break;
            case 'select': await actor.select(control(region(page, step.scope), ['combobox', 'listbox'], step.label), step.option); break;
            case 'fill': await actor.fill(control(region(page, step.scope), ['textbox', 'searchbox', 'spinbutton'], step.label), step.value); break;
            case 'click': await actor.click(region(page, step.scope).getByRole('button', { name: step.button, exact: true })); break;
            case 'check_text': {
              const text = region(page, step.scope).getByText(step.text).first();
              holds = await holdsWithin(() => text.isVisible(), step.timeout_ms);
              break;
            }
            case 'read_summary': {
              let seen = '';
              holds = await holdsWithin(async () => (seen = await summaryText(page, step.scope)).includes(step.expect), step.timeout_ms);
              if (!holds) note = `the summary read ${JSON.stringify(seen.trim())}`;
              break;
            }
            case 'stop':
              record(true);
              return result({ done: step.done, ...(step.message ? { message: step.message } : {}) }, null);
          }
        } catch (e) {
          record(false, firstLine(e));
          return result(null, `step ${i} (${step.action}): ${firstLine(e)}`);
        }
        record(holds, note);
        if (holds || (step.action !== 'check_text' && step.action !== 'read_summary')) { i++; continue; }
        if (step.on_fail === 'continue') { i++; continue; }
        if (step.on_fail === 'stop') return result({ done: false, message: `step ${i}: the check did not hold` }, null);
        const used = jumps.get(i) ?? 0;
        if (used >= (step.max_retries ?? 1)) return result({ done: false, message: `step ${i}: the check did not hold after ${used} retries` }, null);
        jumps.set(i, used + 1);
        actor.retries++;
        i = step.retry_from!;
      }
      return result({ done: true, message: 'the plan ran to its end' }, null);
    },
  };
}
