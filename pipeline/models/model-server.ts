// make model-server / make model-server-stop: start the local model server (pipeline/models/serve.ts)
// in the background, and stop it — only the process this started, found by its pid file.
//
//   start: MODEL ─▶ install what is missing, check the GGUF (install.ts) ─▶ data/models/<name>.json
//          (identity.ts: written once; a different one is refused) ─▶ serve.ts detached in its own
//          session (core/service.ts, execa, as the WordPress sites' servers), writing its own log
//          .state/model-server/<name>.log ─▶ the state file {pid, port} ─▶ wait for GET /health
//          ready, failing at once if it exits ─▶ print PILOT_BASE_URL and PILOT_MODEL
//   stop:  the state file ─▶ the pid, if it is still our serve.ts ─▶ SIGTERM (SIGKILL after 10 s)
import fs from 'node:fs';
import path from 'node:path';
import { main, intOption } from '../../core/cli.ts';
import { RStackError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { codeRoot, paths, rel } from '../../core/paths.ts';
import { DEFAULT_MODEL, MAX_TOKENS, models } from './catalog.ts';
import { ensureModel, requireModel } from './install.ts';
import { identityOf, recordIdentity } from './identity.ts';
import { HOST } from './serve.ts';
import { logTail, processName, spawnDetached, waitUntilReady, type Service } from '../../core/service.ts';

interface ServerState { pid: number; port: number; model: string; base_url: string; started_at: string }

const stateFile = () => path.join(paths.modelServerState(), 'server.json');
const serveScript = path.join(codeRoot, 'pipeline', 'models', 'serve.ts');

function readState(): ServerState | null {
  try {
    return JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as ServerState;
  } catch {
    return null;
  }
}

/** True when pid is alive and is our serve.ts (a pid the system has given to another program is not ours). */
function isOurServer(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(serveScript);
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function health(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://${HOST}:${port}/health`, { signal: AbortSignal.timeout(2000) });
    return ((await res.json()) as { status?: string }).status ?? null;
  } catch {
    return null;
  }
}

async function start(name: string, port: number, waitSeconds: number, maxTokens: number): Promise<number> {
  const entry = requireModel(name);
  const running = readState();
  if (running && isOurServer(running.pid)) {
    if (running.model !== name) throw new RStackError(`a model server for ${running.model} runs already (pid ${running.pid}, ${running.base_url}); stop it first: make model-server-stop`, { exitCode: 2 });
    process.stdout.write(`model server ${name} runs already (pid ${running.pid})\nPILOT_BASE_URL=${running.base_url} PILOT_MODEL=${name}\n`);
    return 0;
  }
  fs.rmSync(stateFile(), { force: true });
  await ensureModel(entry);
  const recorded = recordIdentity(identityOf(entry, { maxTokens }));
  log({ kind: 'info', message: recorded.written ? `model ${name}: identity written to ${rel(recorded.file)}; freeze it before its first plan: make freeze REASON="model ${name}"` : `model ${name}: identity as recorded in ${rel(recorded.file)}` });
  fs.mkdirSync(paths.modelServerState(), { recursive: true });
  const logFile = path.join(paths.modelServerState(), `${name}.log`);
  const service: Service = { name: `model-server ${name}`, comm: 'node', pidFile: path.join(paths.modelServerState(), 'server.pid'), logFile };
  const started = spawnDetached(service, process.execPath, ['--import', 'tsx', serveScript, '--model', name, '--port', String(port), '--state-file', stateFile(), '--max-tokens', String(maxTokens), '--log-file', logFile], { cwd: codeRoot });
  try {
    await waitUntilReady(service.name, 'ready', async () => { const state = readState(); return state !== null && (await health(state.port)) === 'ready'; }, {
      timeoutMs: waitSeconds * 1000, intervalMs: 300, exited: started.exited, lastSeen: () => logTail(logFile),
    });
  } catch (error) {
    // not ready in time, or gone: nothing of it is left running
    if (isOurServer(started.pid)) process.kill(started.pid, 'SIGTERM');
    throw new RStackError(`${(error as Error).message}\n(log: ${rel(logFile)})`, { cause: error });
  }
  const state = readState()!;
  process.stdout.write(`model server ${name}: pid ${state.pid}, log ${rel(logFile)}\nPILOT_BASE_URL=${state.base_url} PILOT_MODEL=${name}\n`);
  return 0;
}

async function stop(): Promise<number> {
  const state = readState();
  if (!state) {
    process.stdout.write('no model server started here (no state file); nothing stopped\n');
    return 0;
  }
  if (!isOurServer(state.pid)) {
    fs.rmSync(stateFile(), { force: true });
    process.stdout.write(`the model server (pid ${state.pid}) is not running any more; its state file is removed\n`);
    return 0;
  }
  process.kill(state.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (isOurServer(state.pid) && Date.now() < deadline) await sleep(100);
  if (isOurServer(state.pid)) process.kill(state.pid, 'SIGKILL');
  // until the last of its threads is gone (its main thread may show Z while the others still hold its socket)
  const last = Date.now() + 10_000;
  while ((isOurServer(state.pid) || processName(state.pid) !== null) && Date.now() < last) await sleep(100);
  fs.rmSync(stateFile(), { force: true });
  process.stdout.write(`model server ${state.model} (pid ${state.pid}) stopped\n`);
  return 0;
}

await main({
  name: 'make model-server',
  summary: 'start (or stop) the local OpenAI-compatible model server on 127.0.0.1: installs the model\'s wheels and checks its GGUF first',
  usage: 'make model-server [MODEL=smollm2-135m] [ARGS="--port 8480"]   ·   make model-server-stop',
  options: {
    model: { type: 'string', default: DEFAULT_MODEL, help: `the model: ${models.map((m) => m.name).join(', ')} (pipeline/models/catalog.ts)` },
    port: { type: 'string', default: '8480', help: 'the port on 127.0.0.1 (0: any free one)' },
    stop: { type: 'boolean', default: false, help: 'stop the server this started (by its pid file) instead' },
    wait: { type: 'string', default: '600', help: 'seconds to wait for the model to be loaded' },
    'max-tokens': { type: 'string', help: `the most tokens an answer may have when a request sets no max_tokens (default: the catalogue's, ${MAX_TOKENS}); recorded in the identity` },
  },
  async run(values) {
    if (values.stop) return stop();
    return start(values.model!, intOption(values.port, 'port', 8480, 0), intOption(values.wait, 'wait', 600), intOption(values['max-tokens'], 'max-tokens', requireModel(values.model!).maxTokens));
  },
});
