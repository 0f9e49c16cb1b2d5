// The model server: a thin OpenAI-compatible adapter over node-llama-cpp, no more than the pilot's
// client (pipeline/pilot/client.ts) needs, on 127.0.0.1 only. `make model-server` starts it in the
// background (pipeline/models/model-server.ts); it can also run in the foreground.
//
//   listen on 127.0.0.1 ─▶ write the state file (pid, port) ─▶ check the GGUF's sha256 ─▶ load
//   GET  /health               {status: loading | ready}
//   GET  /v1/models            the one model, with its identity (pipeline/models/identity.ts)
//   POST /v1/chat/completions  messages ─▶ queue (one at a time) ─▶ prompt tokens ≤ context?
//        ─▶ response_format (json_schema ─▶ grammar | json_object ─▶ JSON grammar | text) ─▶
//        greedy decoding (temperature 0, the fixed seed), the sequence cleared before each request
//        ─▶ {choices[0].message.content, usage, timings}
//
// Every bad request gets an OpenAI-style error body and a clear status: 400 (malformed JSON, bad
// fields, a prompt over the context, a schema the grammar cannot hold), 404, 405, 413 (body over
// 1 MB), 503 (still loading; the queue full), 500 (a generation that failed; the server stays up).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { getLlama, LlamaChat, LlamaLogLevel, type ChatHistoryItem, type Llama, type LlamaGrammar, type LlamaModel, type LlamaContextSequence } from 'node-llama-cpp';
import { main, intOption } from '../../core/cli.ts';
import { sha256 } from '../../core/hash.ts';
import { DEFAULT_MODEL, MAX_TOKENS, THREADS, type ModelEntry } from './catalog.ts';
import { ensureModel, requireModel } from './install.ts';
import { identityOf, type ModelIdentity } from './identity.ts';
import { SchemaNotSupported, toGrammarSchema } from './json-schema.ts';
import { QueueFull, SerialQueue } from './queue.ts';
import { isMain } from '../../core/entry.ts';

export const HOST = '127.0.0.1';
const MAX_BODY_BYTES = 1_000_000;

class HttpError extends Error {
  constructor(readonly status: number, readonly type: string, message: string, readonly code: string | null = null, readonly param: string | null = null) {
    super(message);
  }
}

interface Loaded { llama: Llama; model: LlamaModel; sequence: LlamaContextSequence; chat: LlamaChat }

type Phase = { status: 'loading' } | { status: 'ready'; loaded: Loaded } | { status: 'failed'; error: string };

export interface ServeOptions {
  model: ModelEntry;
  port: number;
  maxWaiting: number;
  maxTokens: number;
  threads: number;
  /** where to write {pid, port, model} once listening */
  stateFile?: string;
  /** wait this long after listening before loading (tests of requests made while the model loads) */
  loadAfterMs: number;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const errorBody = (e: HttpError) => ({ error: { message: e.message, type: e.type, code: e.code, param: e.param } });

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'invalid_request_error', `the request body is over ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface ChatRequest { history: ChatHistoryItem[]; format: { kind: 'text' } | { kind: 'json_object' } | { kind: 'json_schema'; schema: unknown }; maxTokens: number | null }

const bad = (message: string, param: string | null = null, code: string | null = null) => new HttpError(400, 'invalid_request_error', message, code, param);

function messageText(content: unknown, i: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((p) => p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string')) {
    return content.map((p) => (p as { text: string }).text).join('');
  }
  throw bad(`messages[${i}].content must be a string or a list of text parts`, `messages[${i}].content`);
}

/** The request's fields this server honours; anything it cannot do as asked is a 400, never ignored. */
function parseRequest(text: string, served: string): ChatRequest {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw bad(`the request body is not JSON: ${(e as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the request body must be a JSON object');
  if (body.model !== undefined && body.model !== served) throw new HttpError(404, 'invalid_request_error', `this server serves the model ${JSON.stringify(served)}, not ${JSON.stringify(body.model)}`, 'model_not_found', 'model');
  if (body.stream) throw bad('stream is not supported by this server', 'stream');
  if (body.n !== undefined && body.n !== 1) throw bad('n must be 1', 'n');
  if (body.temperature !== undefined && body.temperature !== 0) throw bad(`this server decodes greedily (temperature 0) with a fixed seed; temperature ${JSON.stringify(body.temperature)} is not offered`, 'temperature');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw bad('messages must be a non-empty list', 'messages');
  const history: ChatHistoryItem[] = body.messages.map((m: unknown, i: number): ChatHistoryItem => {
    const role = (m as { role?: unknown })?.role;
    const text = messageText((m as { content?: unknown })?.content, i);
    if (role === 'system' || role === 'developer') return { type: 'system', text };
    if (role === 'user') return { type: 'user', text };
    if (role === 'assistant') return { type: 'model', response: [text] };
    throw bad(`messages[${i}].role must be system, user or assistant, not ${JSON.stringify(role)}`, `messages[${i}].role`);
  });
  if (history.at(-1)!.type === 'model') throw bad('the last message must not be the assistant\'s', 'messages');
  const maxRaw = body.max_completion_tokens ?? body.max_tokens;
  if (maxRaw !== undefined && maxRaw !== null && (!Number.isInteger(maxRaw) || (maxRaw as number) < 1)) throw bad('max_tokens must be a whole number of at least 1', 'max_tokens');
  const rf = body.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined;
  let format: ChatRequest['format'] = { kind: 'text' };
  if (rf !== undefined && rf !== null) {
    if (rf.type === 'json_schema') {
      if (!rf.json_schema || typeof rf.json_schema.schema !== 'object') throw bad('response_format.json_schema.schema must be a JSON Schema object', 'response_format');
      format = { kind: 'json_schema', schema: rf.json_schema.schema };
    } else if (rf.type === 'json_object') format = { kind: 'json_object' };
    else if (rf.type !== 'text') throw bad(`response_format.type ${JSON.stringify(rf.type)} is not supported (json_schema, json_object, text)`, 'response_format');
  }
  return { history, format, maxTokens: (maxRaw as number | undefined) ?? null };
}

export async function serve(options: ServeOptions): Promise<{ server: http.Server; port: number; loaded: Promise<void>; close: () => Promise<void> }> {
  const { model: entry } = options;
  const identity: ModelIdentity = identityOf(entry, { maxTokens: options.maxTokens, threads: options.threads });
  const fingerprint = `node-llama-cpp-${identity.runtime.version}-${entry.gguf.sha256.slice(0, 12)}-seed${entry.seed}`;
  let phase: Phase = { status: 'loading' };
  const queue = new SerialQueue(options.maxWaiting);
  const grammars = new Map<string, Promise<{ grammar: LlamaGrammar; relaxed: string[] }>>();
  let served = 0;
  const logLine = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

  const grammarFor = (loaded: Loaded, format: ChatRequest['format']): Promise<{ grammar: LlamaGrammar; relaxed: string[] }> | undefined => {
    if (format.kind === 'text') return undefined;
    const key = format.kind === 'json_object' ? 'json_object' : sha256(JSON.stringify(format.schema));
    let made = grammars.get(key);
    if (!made) {
      made = (async () => {
        if (format.kind === 'json_object') return { grammar: await loaded.llama.getGrammarFor('json'), relaxed: [] };
        let converted;
        try {
          converted = toGrammarSchema(format.schema);
        } catch (e) {
          if (e instanceof SchemaNotSupported) throw bad(`response_format json_schema: ${e.message}`, 'response_format', 'schema_not_supported');
          throw e;
        }
        try {
          const grammar = await loaded.llama.createGrammarForJsonSchema(converted.schema as never);
          if (converted.relaxed.length) logLine(`json_schema ${key.slice(0, 12)}: the grammar does not enforce ${converted.relaxed.join(', ')} (the client validates them)`);
          return { grammar, relaxed: converted.relaxed };
        } catch (e) {
          throw bad(`response_format json_schema: the grammar could not be made: ${(e as Error).message}`, 'response_format', 'schema_not_supported');
        }
      })();
      grammars.set(key, made);
      made.catch(() => grammars.delete(key));
    }
    return made;
  };

  async function complete(loaded: Loaded, request: ChatRequest, signal: AbortSignal) {
    const constraint = await grammarFor(loaded, request.format);
    const history: ChatHistoryItem[] = [...request.history, { type: 'model', response: [] }];
    const promptTokens = loaded.chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(loaded.model.tokenizer).length;
    const room = entry.contextSize - promptTokens;
    if (room < 1) throw bad(`the prompt is ${promptTokens} tokens; this server's context holds ${entry.contextSize} (prompt and answer)`, 'messages', 'context_length_exceeded');
    if (request.maxTokens !== null && request.maxTokens > room) throw bad(`the prompt is ${promptTokens} tokens and max_tokens ${request.maxTokens}: more than this server's context of ${entry.contextSize}`, 'max_tokens', 'context_length_exceeded');
    const maxTokens = Math.min(request.maxTokens ?? options.maxTokens, room);
    // each answer depends on its own messages only, never on the requests before it
    await loaded.sequence.clearHistory();
    const started = performance.now();
    let firstToken = 0;
    let generated = 0;
    const result = await loaded.chat.generateResponse(history, {
      grammar: constraint?.grammar, temperature: 0, seed: entry.seed, maxTokens, signal, stopOnAbortSignal: false,
      onToken: (tokens) => { if (!firstToken) firstToken = performance.now(); generated += tokens.length; },
    });
    const ended = performance.now();
    const promptMs = (firstToken || ended) - started;
    const generationMs = firstToken ? ended - firstToken : 0;
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      id: `chatcmpl-${++served}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: entry.name, system_fingerprint: fingerprint,
      choices: [{ index: 0, message: { role: 'assistant', content: result.response }, finish_reason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: generated, total_tokens: promptTokens + generated },
      // not OpenAI's: what the bench reads (prompt time = until the first generated token)
      timings: {
        prompt_ms: round(promptMs), generation_ms: round(generationMs),
        prompt_per_second: promptMs > 0 ? round(promptTokens / (promptMs / 1000)) : null,
        generated_per_second: generationMs > 0 && generated > 1 ? round((generated - 1) / (generationMs / 1000)) : null,
        queue_waiting: queue.size, response_format: request.format.kind, grammar_relaxed: constraint?.relaxed ?? [],
      },
    };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/health' || url === '/v1/health') {
      if (req.method !== 'GET') throw new HttpError(405, 'invalid_request_error', 'use GET');
      send(res, phase.status === 'ready' ? 200 : 503, { status: phase.status, model: entry.name, ...(phase.status === 'failed' ? { error: phase.error } : {}) });
      return;
    }
    if (url === '/v1/models') {
      if (req.method !== 'GET') throw new HttpError(405, 'invalid_request_error', 'use GET');
      send(res, 200, { object: 'list', data: [{ id: entry.name, object: 'model', created: 0, owned_by: 'rstackbench', ready: phase.status === 'ready', identity }] });
      return;
    }
    if (url !== '/v1/chat/completions') throw new HttpError(404, 'invalid_request_error', `no route ${req.method} ${url}; this server has GET /v1/models, POST /v1/chat/completions, GET /health`);
    if (req.method !== 'POST') throw new HttpError(405, 'invalid_request_error', 'use POST');
    const request = parseRequest(await readBody(req), entry.name);
    if (phase.status === 'loading') throw new HttpError(503, 'model_loading', `the model ${entry.name} is still loading; try again shortly (GET /health says when it is ready)`, 'model_loading');
    if (phase.status === 'failed') throw new HttpError(503, 'model_failed', `the model ${entry.name} failed to load: ${phase.error}`, 'model_failed');
    const loaded = phase.loaded;
    const abort = new AbortController();
    res.on('close', () => { if (!res.writableEnded) abort.abort(new Error('the client went away')); });
    const started = performance.now();
    let answer;
    try {
      answer = await queue.push(() => complete(loaded, request, abort.signal), abort.signal);
    } catch (e) {
      if (e instanceof QueueFull) throw new HttpError(503, 'server_busy', `busy: ${e.message} (one answer at a time); try again later`, 'server_busy');
      throw e;
    }
    send(res, 200, answer);
    logLine(`${answer.id}: 200, ${answer.usage.prompt_tokens} prompt + ${answer.usage.completion_tokens} generated tokens, ${Math.round(performance.now() - started)} ms, ${request.format.kind}, ${answer.choices[0]!.finish_reason}`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const gone = res.destroyed || req.destroyed;
      const error = e instanceof HttpError ? e : gone ? new HttpError(499, 'client_closed', 'the client went away; the answer was abandoned') : new HttpError(500, 'server_error', `the request failed: ${(e as Error)?.message ?? String(e)}`);
      if (error.status >= 500 || error.status === 400) logLine(`${req.method} ${req.url}: ${error.status} ${error.message.split('\n')[0]}`);
      send(res, error.status, errorBody(error), error.status === 503 ? { 'retry-after': '1' } : {});
    });
  });
  server.requestTimeout = 0; // an answer may take minutes on 2 cores; the client bounds its own wait
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  if (options.stateFile) {
    fs.mkdirSync(path.dirname(options.stateFile), { recursive: true });
    fs.writeFileSync(options.stateFile, JSON.stringify({ pid: process.pid, port, model: entry.name, base_url: `http://${HOST}:${port}/v1`, started_at: new Date().toISOString() }) + '\n');
  }
  logLine(`listening on http://${HOST}:${port}/v1 (model ${entry.name}: loading)`);

  let loadedModel: Loaded | undefined;
  const loaded = (async () => {
    if (options.loadAfterMs) await new Promise((r) => setTimeout(r, options.loadAfterMs));
    try {
      const gguf = await ensureModel(entry);
      const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: options.threads });
      const model = await llama.loadModel({ modelPath: gguf });
      const context = await model.createContext({ contextSize: entry.contextSize, sequences: 1, threads: options.threads });
      const sequence = context.getSequence();
      loadedModel = { llama, model, sequence, chat: new LlamaChat({ contextSequence: sequence }) };
      phase = { status: 'ready', loaded: loadedModel };
      logLine(`model ${entry.name} ready (${entry.gguf.file}, sha256 ${entry.gguf.sha256.slice(0, 12)}…, context ${entry.contextSize}, seed ${entry.seed}, ${options.threads} threads)`);
    } catch (e) {
      phase = { status: 'failed', error: (e as Error).message };
      logLine(`model ${entry.name} failed to load: ${(e as Error).message}`);
      throw e;
    }
  })();
  loaded.catch(() => {});

  const close = async () => {
    if (options.stateFile) fs.rmSync(options.stateFile, { force: true });
    const closed = new Promise<void>((r) => server.close(() => r()));
    server.closeAllConnections();
    await closed;
    await loadedModel?.llama.dispose();
    if (options.stateFile) fs.rmSync(options.stateFile, { force: true });
  };
  return { server, port, loaded, close };
}

/** Everything the process prints goes to the log file, the server's own (a detached server has no stdio). */
function logTo(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a');
  const write = (chunk: string | Uint8Array): boolean => { fs.writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk) : chunk); return true; };
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
}

if (isMain(import.meta.url)) {
  await main({
    name: 'rstackbench model-serve',
    summary: 'serve one catalogued model on 127.0.0.1 (OpenAI-compatible: GET /v1/models, POST /v1/chat/completions) in the foreground; make model-server starts it in the background',
    usage: 'node --import tsx pipeline/models/serve.ts [--model smollm2-135m] [--port 8480]',
    options: {
      model: { type: 'string', default: DEFAULT_MODEL, help: 'the model (pipeline/models/catalog.ts)' },
      port: { type: 'string', default: '8480', help: 'the port on 127.0.0.1 (0: any free port; the state file says which)' },
      'state-file': { type: 'string', help: 'write {pid, port, model, base_url} here once listening; removed on exit' },
      'log-file': { type: 'string', help: 'append what the server prints (its requests, the runtime\'s messages) to this file instead of stdout and stderr (make model-server runs it detached, with no stdio)' },
      'max-waiting': { type: 'string', default: '8', help: 'requests that may wait while one is answered; more get HTTP 503' },
      'max-tokens': { type: 'string', help: `the most tokens an answer may have when a request sets no max_tokens (default: the catalogue's, ${MAX_TOKENS}); part of the identity` },
      threads: { type: 'string', help: `CPU threads for the model (default ${THREADS}); part of the identity` },
      'load-after-ms': { type: 'string', default: '0', help: 'start loading this long after listening (for tests of requests made while loading)' },
    },
    async run(values) {
      if (values['log-file']) logTo(path.resolve(values['log-file']));
      const model = requireModel(values.model!);
      const running = await serve({
        model, port: intOption(values.port, 'port', 8480, 0), stateFile: values['state-file'] ? path.resolve(values['state-file']) : undefined,
        maxWaiting: intOption(values['max-waiting'], 'max-waiting', 8, 0), maxTokens: intOption(values['max-tokens'], 'max-tokens', model.maxTokens),
        threads: intOption(values.threads, 'threads', THREADS), loadAfterMs: intOption(values['load-after-ms'], 'load-after-ms', 0, 0),
      });
      // a generation in flight may hold the model for minutes: the state file goes at once, the process within 3 s
      const stop = () => {
        setTimeout(() => process.exit(0), 3000).unref();
        running.close().then(() => process.exit(0), () => process.exit(1));
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      try {
        await running.loaded;
      } catch {
        await running.close();
        return 1;
      }
      // serve until a signal ends the process
      await new Promise<never>(() => {});
    },
  });
}
