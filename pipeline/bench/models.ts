// The cost of a local model (make bench ARGS="--models smollm2-135m,gemma3-270m"): per model, the
// server started as make model-server starts it, then the pilot's real requests — the frozen prompts
// on the time-zero pages of the first sampled conditions — once with the plan schema as a grammar
// and once without any constraint, one after another.
//
//   model ─▶ serve.ts (its own process, 127.0.0.1, a free port) ─▶ ready
//         ─▶ per variant (json_schema | none), per request: POST /v1/chat/completions ─▶ timings, usage, valid plan?
//         ─▶ prompt and generated tokens/s (medians), plans per minute, the server's peak RSS
//         ─▶ --browser-use n: the browser-use example on n baseline conditions against the same
//            server: per condition the wall time and browser-use's steps
// Reads: prereg/layers-pilot.md, data/tasks/. Writes nothing but what the caller writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { log } from '../../core/log.ts';
import { codeRoot } from '../../core/paths.ts';
import { startFixtureServer } from '../../fixtures/server.ts';
import { launchBrowser } from '../browser/launch.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { readPilotSample } from '../pilot/sample.ts';
import { planningMessages, promptNames, readPrompts } from '../pilot/prompts.ts';
import { timeZeroObservation } from '../pilot/observation.ts';
import { planProblems, planSchema } from '../pilot/plan.ts';
import { ensureModel, requireModel } from '../models/install.ts';
import { treeRss } from './memory.ts';
import { UsageError } from '../../core/errors.ts';
import type { LayersTask } from '../../core/layers.ts';
import { processAgent } from '../agents/process-agent.ts';
import { runAgentTrace } from '../agents/agent-trace.ts';
import { MAIN_BOUNDARY_MS } from '../layers/protocol.ts';

interface Timings { prompt_ms: number; generation_ms: number; prompt_per_second: number | null; generated_per_second: number | null }
interface Answer { choices: { message: { content: string }; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number }; timings: Timings }

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : null;
};
const round = (x: number | null, d = 1) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

/** The browser-use example as make run-agent runs it (examples/agents/browser-use, its venv made by make test or with-sites --examples). */
export const BROWSER_USE_COMMAND = 'examples/agents/browser-use/.venv/bin/python examples/agents/browser-use/agent.py';

/**
 * Per condition: the browser-use example against the bench's model server, in Chromium, scored as
 * the agent arm scores it (pipeline/agents/agent-trace.ts), nothing written but its stderr to a
 * temp folder: wall time, browser-use's steps (its own count, from its stderr), the actions it
 * reports, its claim and the server's verdict.
 */
async function browserUseConditions(model: string, port: number, count: number) {
  if (!fs.existsSync(path.join(codeRoot, 'examples/agents/browser-use/.venv/bin/python'))) {
    throw new UsageError('--browser-use: examples/agents/browser-use has no venv; make it with: npx rstackbench with-sites --examples -- true');
  }
  const tasks = readLayersTasks();
  const templates = [...new Set(tasks.map((t) => t.template))];
  const chosen = Array.from({ length: count }, (_, i) => tasks.filter((t) => t.template === templates[i % templates.length] && t.layer === 'baseline')[Math.floor(i / templates.length)]).filter((t): t is LayersTask => Boolean(t));
  const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-bench-browser-use-'));
  const env = { LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LLM_MODEL: model };
  const server = await startFixtureServer();
  const conditions = [];
  try {
    for (const task of chosen) {
      const stderrFile = path.join(logs, `${task.condition_id}.log`);
      const agent = processAgent({ command: BROWSER_USE_COMMAND, name: 'browser-use', timeoutMs: BROWSER_USE_TIMEOUT_MS, cwd: codeRoot, stderrPath: () => stderrFile, env });
      const started = performance.now();
      const outcome = await runAgentTrace({ browserName: 'chromium', server, task, agent, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } });
      const wallMs = performance.now() - started;
      const stderr = fs.existsSync(stderrFile) ? fs.readFileSync(stderrFile, 'utf8') : '';
      const steps = [...stderr.matchAll(/browser-use: (\d+) steps/g)].map((m) => Number(m[1])).at(-1) ?? null;
      conditions.push({ condition_id: task.condition_id, wall_ms: Math.round(wallMs), steps, actions: outcome.actions, claimed_done: outcome.claim?.done ?? null, vts: outcome.vts, error: outcome.error });
      log({ kind: 'info', message: `bench ${model} browser-use ${task.condition_id}: ${Math.round(wallMs / 1000)} s, ${steps ?? '?'} steps, claim ${JSON.stringify(outcome.claim)}, VTS ${outcome.vts}${outcome.error ? `, error ${outcome.error.slice(0, 120)}` : ''}` });
    }
  } finally {
    await server.close();
    fs.rmSync(logs, { recursive: true, force: true });
  }
  const walls = conditions.map((c) => c.wall_ms);
  const steps = conditions.flatMap((c) => (c.steps === null ? [] : [c.steps]));
  return { conditions, median_wall_ms: median(walls), median_steps: median(steps), wall_ms_per_step: steps.length ? round(walls.reduce((a, b) => a + b, 0) / steps.reduce((a, b) => a + b, 0), 0) : null };
}

/** one browser-use condition may take this long here (the registered slice's prereg allows 600 s) */
const BROWSER_USE_TIMEOUT_MS = 600_000;

export async function runModelBench(options: { models: string[]; requests: number; browserUse: number }) {
  const prompts = readPrompts();
  const sample = readPilotSample(readLayersTasks());
  const items = Array.from({ length: options.requests }, (_, i) => ({ task: sample[Math.floor(i / promptNames.length) % sample.length]!.task, prompt: promptNames[i % promptNames.length]! }));
  const { browser } = await launchBrowser('chromium');
  const fixture = await startFixtureServer();
  const observations = new Map<string, string>();
  try {
    for (const { task } of items) if (!observations.has(task.condition_id)) observations.set(task.condition_id, await timeZeroObservation(browser, fixture, task));
  } finally {
    await browser.close();
    await fixture.close();
  }
  const schema = (() => { const { $schema: _s, $id: _i, title: _t, ...rest } = planSchema(); return rest; })();
  const results: Record<string, unknown> = {};
  for (const name of options.models) {
    const entry = requireModel(name);
    await ensureModel(entry);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-bench-model-'));
    const stateFile = path.join(dir, 'server.json');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(codeRoot, 'pipeline/models/serve.ts'), '--model', name, '--port', '0', '--state-file', stateFile], { cwd: codeRoot, stdio: 'ignore' });
    let peak = 0;
    const sampler = setInterval(() => { peak = Math.max(peak, treeRss(child.pid!)); }, 250);
    try {
      const loadStarted = performance.now();
      let port = 0;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the model server for ${name} exited`);
        if (!port && fs.existsSync(stateFile)) port = (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { port: number }).port;
        if (port && (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status, () => 0)) === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const loadMs = performance.now() - loadStarted;
      const variants: Record<string, unknown> = {};
      for (const variant of ['json_schema', 'none'] as const) {
        const answers: (Answer & { valid: boolean })[] = [];
        const started = performance.now();
        for (const [i, item] of items.entries()) {
          const messages = planningMessages(prompts, item.prompt, item.task.instruction, observations.get(item.task.condition_id)!);
          const body = { model: name, messages, temperature: 0, ...(variant === 'json_schema' ? { response_format: { type: 'json_schema', json_schema: { name: 'plan', schema, strict: false } } } : {}) };
          const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const answer = (await res.json()) as Answer;
          let valid = false;
          try { valid = planProblems(JSON.parse(answer.choices[0]!.message.content)).length === 0; } catch { /* not JSON */ }
          answers.push({ ...answer, valid });
          log({ kind: 'info', message: `bench ${name} ${variant} ${i + 1}/${items.length}: ${answer.usage.prompt_tokens} + ${answer.usage.completion_tokens} tokens, ${answer.timings.prompt_per_second} / ${answer.timings.generated_per_second} tokens/s, ${answer.choices[0]!.finish_reason}, ${valid ? 'a valid plan' : 'no valid plan'}` });
        }
        const minutes = (performance.now() - started) / 60_000;
        variants[variant] = {
          requests: answers.length,
          valid_plans: answers.filter((a) => a.valid).length,
          prompt_tokens_per_s: round(median(answers.map((a) => a.timings.prompt_per_second ?? 0))),
          generated_tokens_per_s: round(median(answers.map((a) => a.timings.generated_per_second ?? 0))),
          mean_completion_tokens: round(answers.reduce((s, a) => s + a.usage.completion_tokens, 0) / answers.length),
          answers_per_minute: round(answers.length / minutes, 2),
          plans_per_minute: round(answers.filter((a) => a.valid).length / minutes, 2),
          hit_max_tokens: answers.filter((a) => a.choices[0]!.finish_reason === 'length').length,
        };
      }
      // the browser-use example with this model, on the first baseline conditions of each app
      const browserUse = options.browserUse > 0 ? await browserUseConditions(name, port, options.browserUse) : null;
      results[name] = { load_ms: Math.round(loadMs), peak_rss_mb: Math.round(peak / 2 ** 20), variants, ...(browserUse ? { browser_use: browserUse } : {}) };
    } finally {
      clearInterval(sampler);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return { at: new Date().toISOString(), load_average: os.loadavg().map((x) => round(x, 2)), cores: os.cpus().length, requests_per_variant: options.requests, browser_use_conditions: options.browserUse, models: results };
}
