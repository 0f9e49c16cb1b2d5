// make pilot-plans: ask a model for the planning pilot's 60 plans (30 sampled conditions × 2 prompts)
// and write them to data/plans/<run>.jsonl, to be frozen (make freeze) before make run-pilot executes them.
//
//   PILOT_BASE_URL, PILOT_MODEL ─▶ gate (prereg/layers-pilot.md + the sample frozen)
//   ─▶ per sampled condition: the time-zero page (Chromium) ─▶ per prompt: messages ─▶ the endpoint
//   ─▶ a valid plan: data/plans/<run>.jsonl | no plan: data/excluded/pilot/<run>.jsonl + REASONS.jsonl
//
// Reads: the ledger, prereg/layers-pilot.md, data/tasks/layers.jsonl, data/tasks/pilot-sample.jsonl.
// A rerun of the same --run asks only for the plans still missing; a frozen plan file is never appended to.
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { paths, rel } from '../../core/paths.ts';
import { sha256 } from '../../core/hash.ts';
import { UsageError } from '../../core/errors.ts';
import { startFixtureServer } from '../../fixtures/server.ts';
import { launchBrowser } from '../browser/launch.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { readPilotSample } from './sample.ts';
import { planningMessages, promptNames, readPrompts } from './prompts.ts';
import { timeZeroObservation } from './observation.ts';
import { plannerConfig, publicEndpoint, requestPlan, type ResponseFormat } from './client.ts';
import { appendExcluded, appendPlan, checkRunName, frozenModelIdentity, gateForPlanning, planFile, planId, readPlanFile } from './plan-file.ts';
import { servedIdentity } from '../models/identity.ts';

const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';

await main({
  name: 'make pilot-plans',
  summary: 'ask an OpenAI-compatible endpoint (PILOT_BASE_URL, PILOT_MODEL, PILOT_API_KEY) for the pilot\'s 60 plans; writes data/plans/<run>.jsonl',
  usage: 'PILOT_BASE_URL=http://127.0.0.1:11434/v1 PILOT_MODEL=qwen2.5:7b make pilot-plans [ARGS="--run NAME"]',
  options: {
    run: { type: 'string', help: 'the plan file\'s name, data/plans/NAME.jsonl (default: PILOT_MODEL, made file-safe); rerun it to ask for missing plans. PILOT_TIMEOUT_MS bounds one request (default 600000)' },
    only: { type: 'string', help: 'ask only for the sampled conditions whose id matches this regular expression (a smoke test; the file then lacks the others)' },
    prompt: { type: 'string', help: `ask only with this prompt (${promptNames.join(' or ')}; a smoke test; the file then lacks the other's plans)` },
  },
  async run(values) {
    const config = plannerConfig();
    const run = checkRunName(values.run ?? slug(config.model));
    const file = planFile(run);
    const { head } = await gateForPlanning(['prereg/layers-pilot.md', 'data/tasks/layers.jsonl', 'data/tasks/pilot-sample.jsonl']);
    if (rel(file) in head.files) throw new UsageError(`${rel(file)} is frozen; its plans are final. Choose another --run for new plans, or execute it: make run-pilot PLANS=${rel(file)}`);
    // the model's identity, frozen before its first plan, and the same for every plan of the file
    const modelIdentity = frozenModelIdentity(head, await servedIdentity(config.baseUrl, config.model, config.apiKey));
    const existing = fs.existsSync(file) ? readPlanFile(file) : [];
    const other = existing.find((l) => (l.model_identity?.file_sha256 ?? null) !== (modelIdentity?.file_sha256 ?? null));
    if (other) throw new UsageError(`${rel(file)} holds plans made with another model identity (${other.model_identity?.file ?? 'none reported'}); the endpoint now serves ${modelIdentity?.file ?? 'a model with no reported identity'}. Choose another --run`);
    const prompts = readPrompts();
    const only = values.only ? new RegExp(values.only) : null;
    const sample = readPilotSample(readLayersTasks()).filter((s) => !only || only.test(s.task.condition_id));
    if (!sample.length) throw new UsageError(`--only ${values.only} matches none of the sampled conditions`);
    if (values.prompt !== undefined && !(promptNames as readonly string[]).includes(values.prompt)) throw new UsageError(`--prompt must be ${promptNames.join(' or ')}, not ${JSON.stringify(values.prompt)}`);
    const asked = promptNames.filter((p) => values.prompt === undefined || p === values.prompt);
    const done = new Set(existing.map((l) => l.plan_id));
    const todo = sample.flatMap((s) => asked.filter((p) => !done.has(planId(run, s.task.condition_id, p))).map((p) => ({ ...s, prompt: p })));
    const total = sample.length * asked.length;
    const endpoint = publicEndpoint(config.baseUrl);
    log({ kind: 'info', message: `pilot-plans: run ${run}, model ${config.model} at ${endpoint}: ${todo.length} of ${total} plans to ask for${done.size ? ` (${done.size} already in ${rel(file)})` : ''}` });
    log({ kind: 'info', message: modelIdentity ? `pilot-plans: model identity ${modelIdentity.file} (GGUF sha256 ${modelIdentity.identity.gguf.sha256.slice(0, 12)}…, ${modelIdentity.identity.runtime.name} ${modelIdentity.identity.runtime.version}), frozen` : 'pilot-plans: the endpoint reports no model identity; the plans record the model only as the server names it' });
    const planSchemaSha = sha256(fs.readFileSync(path.join(paths.schemas(), 'plan.schema.json')));
    const state: { format: ResponseFormat } = { format: 'json_schema' };
    let written = 0;
    let excluded = 0;
    if (todo.length) {
      const { browser } = await launchBrowser('chromium');
      const server = await startFixtureServer();
      try {
        const observations = new Map<string, string>();
        for (const item of todo) {
          const { task } = item;
          if (!observations.has(task.condition_id)) observations.set(task.condition_id, await timeZeroObservation(browser, server, task));
          const observation = observations.get(task.condition_id)!;
          const messages = planningMessages(prompts, item.prompt, task.instruction, observation);
          const answer = await requestPlan(config, messages, state);
          const common = { run, condition_id: task.condition_id, prompt: item.prompt, model: answer.model, requested_model: config.model, usage: answer.usage, planning_ms: answer.planning_ms, endpoint, response_format: answer.response_format, model_identity: modelIdentity, created_at: new Date().toISOString() };
          const id = planId(run, task.condition_id, item.prompt);
          if (answer.ok) {
            appendPlan(file, {
              schema: 'pilot-plan/1', plan_id: id, ...common, plan: answer.plan,
              observation_sha256: sha256(observation), messages_sha256: sha256(JSON.stringify(messages)), plan_schema_sha256: planSchemaSha,
            });
            written++;
            log({ kind: 'info', message: `${id}: ${answer.plan.steps.length} steps, ${answer.planning_ms} ms, ${answer.usage?.total_tokens ?? '?'} tokens (${answer.model ?? 'model not reported'})` });
          } else {
            appendExcluded(run, { schema: 'pilot-excluded/1', ...common, reason: answer.reason, status: answer.status, content: answer.content });
            excluded++;
            log({ kind: 'warn', message: `${id}: no plan (${answer.reason}); kept in data/excluded/pilot/${run}.jsonl` });
          }
        }
      } finally {
        await browser.close();
        await server.close();
      }
    }
    const have = sample.flatMap((s) => asked.map((p) => planId(run, s.task.condition_id, p))).filter((id) => done.has(id)).length + written;
    const full = readPilotSample(readLayersTasks()).length * promptNames.length;
    process.stdout.write(
      `pilot-plans ${run}: ${have} of ${total} plans in ${rel(file)} (${written} new), ${excluded} answers excluded${only || values.prompt ? ` (--only/--prompt: ${total} of the ${full} plans asked for)` : ''}\n` +
        (have === total
          ? `next: freeze the plans before any is executed: make freeze REASON="pilot plans ${run}", then make run-pilot PLANS=${rel(file)}\n`
          : `${total - have} plans missing: run make pilot-plans ARGS="--run ${run}" again to ask for them\n`),
    );
    return have === total ? 0 : 1;
  },
});
