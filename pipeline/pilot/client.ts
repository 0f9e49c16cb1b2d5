// The planner client: one request to any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama,
// llama.cpp's server, vLLM, LM Studio), set by PILOT_BASE_URL, PILOT_MODEL and, optionally,
// PILOT_API_KEY. It asks for schema-constrained JSON and validates the answer against
// schemas/plan.schema.json whatever the server did.
//
//   messages ─▶ POST {base}/chat/completions (response_format: json_schema → json_object → none,
//               stepping down only when the server rejects the format) ─▶ content ─▶ JSON ─▶ plan?
//   ─▶ { ok: plan, the model as the server names it, usage, planning_ms } | { not ok: the reason, kept }
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { planProblems, planSchema, type Plan } from './plan.ts';
import type { ChatMessage } from './prompts.ts';

export interface PlannerConfig {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** per request */
  timeoutMs: number;
}

export const formats = ['json_schema', 'json_object', 'none'] as const;
export type ResponseFormat = (typeof formats)[number];

export interface Usage { prompt_tokens: number | null; completion_tokens: number | null; total_tokens: number | null }

interface Common {
  /** the model as the server reports it (null when it does not say) */
  model: string | null;
  usage: Usage | null;
  /** from sending the request to having the whole answer */
  planning_ms: number;
  response_format: ResponseFormat;
}
export type PlanAnswer =
  | (Common & { ok: true; plan: Plan })
  | (Common & { ok: false; reason: string; status: number | null; content: string | null });


/** The endpoint from the environment; a UsageError (exit 2) naming PILOT_BASE_URL when it is not set. */
export function plannerConfig(env: NodeJS.ProcessEnv = process.env): PlannerConfig {
  const baseUrl = env.PILOT_BASE_URL?.trim();
  const model = env.PILOT_MODEL?.trim();
  if (!baseUrl || !model) throw new UsageError(messages.pilot.noEndpoint());
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new UsageError(`PILOT_BASE_URL is not a URL: ${JSON.stringify(baseUrl)}`, cause);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`PILOT_BASE_URL must be http(s), not ${url.protocol}`);
  const timeout = env.PILOT_TIMEOUT_MS ? Number(env.PILOT_TIMEOUT_MS) : 600_000;
  if (!Number.isInteger(timeout) || timeout < 1) throw new UsageError(`PILOT_TIMEOUT_MS must be a whole number of ms, not ${JSON.stringify(env.PILOT_TIMEOUT_MS)}`);
  return { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: env.PILOT_API_KEY?.trim() || undefined, timeoutMs: timeout };
}

/** The base URL as it may be recorded: no credentials, no query. */
export function publicEndpoint(baseUrl: string): string {
  const u = new URL(baseUrl);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  return u.href.replace(/\/+$/, '');
}

/** The schema as a constraint for the server: the plan schema without its JSON-Schema bookkeeping keys. */
function constraint(): Record<string, unknown> {
  const { $schema: _s, $id: _i, title: _t, ...schema } = planSchema();
  return schema;
}

function responseFormat(format: ResponseFormat): Record<string, unknown> | undefined {
  if (format === 'json_schema') return { type: 'json_schema', json_schema: { name: 'plan', schema: constraint(), strict: false } };
  if (format === 'json_object') return { type: 'json_object' };
  return undefined;
}

/** A rejection of the format itself (rather than of the request): the next format may be accepted. */
const rejectsFormat = (status: number, body: string) => (status === 400 || status === 422) && /response_format|json_schema|json_object|schema|grammar/i.test(body);

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function usageOf(body: Record<string, unknown>): Usage | null {
  const u = body.usage as Record<string, unknown> | undefined;
  if (!u || typeof u !== 'object') return null;
  const prompt = num(u.prompt_tokens);
  const completion = num(u.completion_tokens);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: num(u.total_tokens) ?? (prompt !== null && completion !== null ? prompt + completion : null) };
}

/** The answer's JSON: the content itself, or the one fenced block it consists of (models without a constraint fence it). */
function parseContent(content: string): unknown {
  const trimmed = content.trim();
  try {
    return JSON.parse(trimmed);
  } catch (first) {
    const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(trimmed);
    if (fenced) return JSON.parse(fenced[1]!);
    throw first;
  }
}

/**
 * One POST, bounded by timeoutMs alone. Not fetch: its HTTP client gives up on a response whose
 * headers take more than 300 s, and a small model on two cores may think longer than that.
 */
function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ res: { ok: boolean; status: number }; text: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? https : http).request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        resolve({ res: { ok: status >= 200 && status < 300, status }, text: Buffer.concat(chunks).toString('utf8') });
      });
      response.on('error', (e) => { clearTimeout(timer); reject(e); });
    });
    const timer = setTimeout(() => request.destroy(new Error(`no complete answer within ${timeoutMs} ms (PILOT_TIMEOUT_MS)`)), timeoutMs);
    request.on('error', (e) => { clearTimeout(timer); reject(e); });
    request.end(body);
  });
}

/**
 * Asks for one plan. `state.format` remembers which response_format the server accepted, so a run
 * steps down at most once per format. Never throws for what the server or the model did: a failed
 * call or an invalid answer is an answer with ok: false and the reason.
 */
export async function requestPlan(config: PlannerConfig, messages: ChatMessage[], state: { format: ResponseFormat } = { format: 'json_schema' }): Promise<PlanAnswer> {
  const url = `${config.baseUrl}/chat/completions`;
  for (;;) {
    const format = state.format;
    const body = { model: config.model, messages, temperature: 0, ...(responseFormat(format) ? { response_format: responseFormat(format) } : {}) };
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    // what is kept of a failed answer never holds the key, even when a server echoes it back
    const redact = (text: string) => (config.apiKey ? text.split(config.apiKey).join('[PILOT_API_KEY]') : text);
    const failed = (reason: string, status: number | null, content: string | null, model: string | null = null, usage: Usage | null = null): PlanAnswer =>
      ({ ok: false, reason: redact(reason), status, content: content === null ? null : redact(content).slice(0, 20_000), model, usage, planning_ms: elapsed(), response_format: format });
    let res: { ok: boolean; status: number };
    let text: string;
    try {
      ({ res, text } = await post(url, { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) }, JSON.stringify(body), config.timeoutMs));
    } catch (e) {
      const cause = (e as Error & { cause?: Error }).cause?.message;
      return failed(`the call failed: ${(e as Error).message}${cause ? ` (${cause})` : ''}`, null, null);
    }
    if (!res.ok) {
      const next = formats[formats.indexOf(format) + 1];
      if (next && rejectsFormat(res.status, text)) {
        state.format = next;
        continue;
      }
      return failed(`HTTP ${res.status} from ${publicEndpoint(config.baseUrl)}/chat/completions`, res.status, text);
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text);
    } catch {
      return failed('the server\'s response is not JSON', res.status, text);
    }
    const model = typeof parsed.model === 'string' ? parsed.model : null;
    const usage = usageOf(parsed);
    const message = (parsed.choices as { message?: { content?: unknown } }[] | undefined)?.[0]?.message;
    const content = typeof message?.content === 'string' ? message.content : null;
    if (content === null) return failed('the response has no choices[0].message.content', res.status, text, model, usage);
    let candidate: unknown;
    try {
      candidate = parseContent(content);
    } catch (e) {
      return failed(`the answer is not JSON: ${(e as Error).message}`, res.status, content, model, usage);
    }
    const problems = planProblems(candidate);
    if (problems.length) return failed(`the answer is not a valid plan: ${problems.slice(0, 5).join('; ')}`, res.status, content, model, usage);
    return { ok: true, plan: candidate as Plan, model, usage, planning_ms: elapsed(), response_format: format };
  }
}
