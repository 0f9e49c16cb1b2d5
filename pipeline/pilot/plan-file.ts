// Plan files: data/plans/<run>.jsonl, one validated line per plan (schemas/pilot-plan.schema.json),
// appended as the model answers and frozen by `make freeze` before any is executed; and the answers
// that gave no plan, in data/excluded/pilot/<run>.jsonl (schemas/pilot-excluded.schema.json), each
// also a line of data/excluded/REASONS.jsonl.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { readJsonl, toLine } from '../../core/jsonl.ts';
import { validate } from '../../core/validate.ts';
import { GateError, RStackError } from '../../core/errors.ts';
import { appendDurable } from '../kernel/files.ts';
import { recordExclusion } from '../kernel/exclude.ts';
import type { LedgerEntry } from '../kernel/ledger.ts';
import { gate } from '../kernel/gate.ts';
import { messages } from '../../core/messages.ts';
import { planProblems } from './plan.ts';
import { identityFile, identityText, readIdentity, type ModelIdentity } from '../models/identity.ts';
import type { PromptName } from './prompts.ts';

import type { ExcludedAnswer, PlanLine } from '../../core/contracts.ts';

// a plan line and an excluded answer: schemas/pilot-plan.schema.json, schemas/pilot-excluded.schema.json
export type { ExcludedAnswer, PlanLine } from '../../core/contracts.ts';

export const planId = (run: string, conditionId: string, prompt: PromptName) => `${run}/${conditionId}/${prompt}`;
export const planFile = (run: string) => path.join(paths.plans(), `${run}.jsonl`);
export const excludedPlanFile = (run: string) => path.join(paths.excluded(), 'pilot', `${run}.jsonl`);

export function checkRunName(run: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(run)) throw new RStackError(`--run takes letters, digits, '.', '_' and '-' only, not ${JSON.stringify(run)}`, { exitCode: 2 });
  return run;
}

/** Every plan of a file, each line against its schema and each plan against the plan schema's rules. */
export function readPlanFile(file: string): PlanLine[] {
  if (!fs.existsSync(file)) throw new RStackError(`no plan file at ${rel(file)}`, { exitCode: 2 });
  const lines = readJsonl<PlanLine>(file, { schema: 'pilot-plan' });
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    const problems = planProblems(l.plan);
    if (problems.length) throw new RStackError(`${rel(file)}:${i + 1}: field plan: ${problems.join('; ')}`, { exitCode: 2 });
    if (seen.has(l.plan_id)) throw new RStackError(`${rel(file)}:${i + 1}: plan_id ${l.plan_id} appears twice`, { exitCode: 2 });
    seen.add(l.plan_id);
  });
  return lines;
}

export function appendPlan(file: string, line: PlanLine): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  appendDurable(file, toLine(validate('pilot-plan', line, { file: rel(file) })));
}

export function appendExcluded(run: string, entry: ExcludedAnswer): void {
  const file = excludedPlanFile(run);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  appendDurable(file, toLine(validate('pilot-excluded', entry, { file: rel(file) })));
  recordExclusion({ file: rel(file), from: null, rows: 1, reason: `pilot plan ${planId(run, entry.condition_id, entry.prompt)} not made: ${entry.reason}`.slice(0, 2000) });
}

/**
 * The gate for making plans: the ledger head must hold the pilot's prereg and sample unchanged, and
 * the tree may differ from the head only by plan files not yet frozen (the ones being written).
 */
export async function gateForPlanning(required: string[]): Promise<{ head: LedgerEntry }> {
  const plansDir = rel(paths.plans()) + '/';
  const { entry } = await gate({ unfrozen: (file) => file.startsWith(plansDir) });
  const missing = required.filter((f) => !(f in entry.files));
  if (missing.length) throw new GateError(`refusing to plan: not frozen yet: ${missing.join(', ')}. ${messages.refreeze}`, missing);
  return { head: entry };
}

/** The plan files frozen in the ledger head. */
export function frozenPlanFiles(head: LedgerEntry): string[] {
  const plansDir = rel(paths.plans()) + '/';
  return Object.keys(head.files).filter((f) => f.startsWith(plansDir)).sort();
}

/** What a plan line records of the served model: its frozen identity file, or null. */
export type PlanModelIdentity = PlanLine['model_identity'];

/**
 * The served model's identity must be frozen before its first plan: data/models/<name>.json in the
 * ledger head, saying exactly what the server reports (GateError, exit 3, otherwise). An endpoint
 * that reports no identity gives null.
 */
export function frozenModelIdentity(head: LedgerEntry, served: ModelIdentity | null): PlanModelIdentity {
  if (!served) return null;
  const file = rel(identityFile(served.name));
  if (!(file in head.files)) {
    throw new GateError(
      fs.existsSync(identityFile(served.name))
        ? `refusing to plan: the served model's identity ${file} is not frozen yet. ${messages.refreeze}`
        : `refusing to plan: the endpoint serves ${served.name}, whose identity ${file} is not recorded here (make model-server MODEL=${served.name} writes it), then ${messages.refreeze}`,
      [file],
    );
  }
  if (identityText(readIdentity(identityFile(served.name))) !== identityText(served)) {
    throw new GateError(`refusing to plan: the endpoint serves another ${served.name} than the identity frozen in ${file} (its packages, GGUF, settings or runtime differ)`, [file]);
  }
  return { file, file_sha256: head.files[file]!, identity: served };
}
