// make fault-proxy / make fault-proxy-stop: the fault proxy (the package in proxy/, whose own
// command is rstackbench-fault-proxy) in the background, on 127.0.0.1, for a team pointing a fault
// spec at its own app (docs/fault-proxy.md). This is the harness's service around the package's
// command: a pid file, a log, a state folder, a start that waits until it answers.
//
//   start:  the spec, layer(s), severities and transport fault checked, the fault's name against the
//           table in use (a malformed one: exit 2, nothing started)
//           ─▶ one running already? (its pid file: a live proxy/src/cli.ts of ours) ─▶ the port free?
//           ─▶ the package's command (proxy/src/cli.ts) detached (core/service.ts: its own session, pid file, log) ─▶ wait until
//           its state file names it and it answers ─▶ print its URL, the browser flags, the CA
//   stop:   by the pid file only, if it still is our proxy/src/cli.ts: TERM (held writes are cancelled,
//           never sent), KILL after the grace time
//   status: print the running proxy's URL, exit 0; exit 1 when none runs
//
//   .state/fault-proxy/ (FAULT_PROXY_STATE)  proxy.pid  proxy.json  proxy.log  events.jsonl (this start's)
//           events.previous.jsonl (the start before)  ca.pem  ca.key (0600)
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { main, intOption } from '../../core/cli.ts';
import { RStackError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import { codeRoot, paths, shownPath } from '../../core/paths.ts';
import { assertPortFree, ensureStateFolder, logTail, processName, readPid, spawnDetached, stopService, waitUntilReady, type Service } from '../../core/service.ts';
import { browserFlags, conditionOf, conditionOptions, describeCondition, serviceFiles, type ConditionValues, type ServiceState } from '../../proxy/src/index.ts';
import { isMain } from '../../core/entry.ts';

const serveScript = path.join(codeRoot, 'proxy', 'src', 'cli.ts');

function service(state: string): Service {
  const files = serviceFiles(state);
  return { name: 'fault-proxy', comm: 'node', pidFile: files.pid, logFile: files.log };
}

/** The pid of our running proxy, by the pid file: a live node process whose command line is proxy/src/cli.ts. */
function ourPid(state: string): number | null {
  const pid = readPid(serviceFiles(state).pid);
  if (pid === null || processName(pid) !== 'node') return null;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(serveScript) ? pid : null;
  } catch {
    return null;
  }
}

function readState(state: string): ServiceState | null {
  try { return JSON.parse(fs.readFileSync(serviceFiles(state).state, 'utf8')) as ServiceState; } catch { return null; }
}

const answers = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port });
  const done = (ok: boolean) => { socket.destroy(); resolve(ok); };
  socket.setTimeout(1000, () => done(false));
  socket.once('connect', () => done(true));
  socket.once('error', () => done(false));
});

/** What a user needs to point a browser at the proxy. */
function describe(s: ServiceState, state: string): string {
  const files = serviceFiles(state);
  return [
    `fault proxy: pid ${s.pid}, ${s.url} (${describeCondition(s)})`,
    `  events: ${shownPath(files.events)}   log: ${shownPath(files.log)}`,
    ...browserFlags(s),
    `  (or in code: launchBrowser(name, null, { proxy: { server: '${s.url}'${s.ca ? ', ca' : ''} } }) of pipeline/browser/launch.ts)`,
  ].join('\n');
}

async function start(values: Record<string, string | boolean | undefined>): Promise<number> {
  const state = paths.faultProxyState();
  const { condition } = conditionOf(values as ConditionValues);
  const running = ourPid(state);
  if (running !== null) {
    const s = readState(state);
    throw new RStackError(messages.proxy.running(running, s?.url ?? '?'), { exitCode: 2 });
  }
  const port = intOption(values.port as string | undefined, 'port', 8600, 0);
  if (port !== 0) await assertPortFree('fault-proxy', port, messages.proxy.portHint());
  ensureStateFolder(state, 0o700);
  fs.chmodSync(state, 0o700);
  const files = serviceFiles(state);
  fs.rmSync(files.state, { force: true });
  const svc = service(state);
  const args = ['--import', 'tsx', serveScript, '--state', state, '--spec', path.resolve(String(values.spec)), '--layer', condition.layer,
    '--severity', String(condition.severity), '--seed', condition.seed, '--port', String(port)];
  if (condition.also) args.push('--also', `${condition.also.layer}:${condition.also.severity}`);
  if (condition.transport) args.push('--transport', condition.transport.fault, '--transport-severity', String(condition.transport.severity));
  if (values['transport-table']) args.push('--transport-table', path.resolve(String(values['transport-table'])));
  if (values['layer-table']) args.push('--layer-table', path.resolve(String(values['layer-table'])));
  if (values.https) args.push('--https');
  if (values.hosts) args.push('--hosts', String(values.hosts));
  if (values['upstream-ca']) args.push('--upstream-ca', String(values['upstream-ca']).split(',').map((f) => path.resolve(f.trim())).join(','));
  const started = spawnDetached(svc, process.execPath, args, { cwd: codeRoot, writePid: true });
  try {
    await waitUntilReady(svc.name, 'listening', async () => { const s = readState(state); return s !== null && s.pid === started.pid && (await answers(s.port)); }, {
      timeoutMs: 30_000, intervalMs: 200, exited: started.exited, lastSeen: () => logTail(files.log),
    });
  } catch (error) {
    if (ourPid(state) === started.pid) process.kill(started.pid, 'SIGTERM');
    throw error;
  }
  process.stdout.write(`${describe(readState(state)!, state)}\n`);
  return 0;
}

async function stop(): Promise<number> {
  const state = paths.faultProxyState();
  const files = serviceFiles(state);
  if (ourPid(state) === null) {
    fs.rmSync(files.pid, { force: true });
    process.stdout.write(`${messages.proxy.nothingToStop(shownPath(state))}\n`);
    return 0;
  }
  const pid = await stopService(service(state), { graceMs: 10_000 });
  process.stdout.write(`${messages.proxy.stopped(pid!, shownPath(files.events))}\n`);
  return 0;
}

async function status(): Promise<number> {
  const state = paths.faultProxyState();
  const s = readState(state);
  if (ourPid(state) === null || !s || !(await answers(s.port))) {
    process.stdout.write(`${messages.proxy.notRunning()}\n`);
    return 1;
  }
  process.stdout.write(`${describe(s, state)}\n`);
  return 0;
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make fault-proxy',
    summary: 'the fault proxy in the background on 127.0.0.1 for your own app: one condition (a fault spec; a layer and severity, a second layer, a transport fault, or any of them together; a seed) until it is stopped; prints its URL and how to point a browser at it',
    usage: [
      'make fault-proxy SPEC=spec.json LAYER=state SEVERITY=2 [ALSO=access:1] [TRANSPORT=lost-response [TRANSPORT_SEVERITY=1] [TRANSPORT_TABLE=my.json]] [SEED=s] [HTTPS=1] [ARGS="--port 8600 --hosts staging.example.com --upstream-ca cert.pem"]',
      '       make fault-proxy SPEC=spec.json TRANSPORT=write-error TRANSPORT_SEVERITY=2      (a transport fault alone, on the baseline)',
      '       make fault-proxy-stop   ·   rstackbench fault-proxy --status',
      '',
      'the condition: --layer and --severity (baseline 0; access, perception, action, state, verification 1-3);',
      '--also LAYER:SEVERITY a second layer on top (a compound pair: neither baseline, not both state and verification);',
      '--transport NAME [--transport-severity 1-3] a transport fault, NAME a key of the table in use: proxy/faults/transport.json,',
      'or --transport-table FILE of your own (its names; a name the table lacks is refused, listing the table\'s);',
      'likewise the layers: proxy/faults/layers.json, or --layer-table FILE of your own. The package\'s own command,',
      'rstackbench-fault-proxy (proxy/README.md), runs the same condition in the foreground; its --list prints every name.',
      'Each start writes a fresh events.jsonl in the state folder (the start before is kept as events.previous.jsonl).',
    ].join('\n'),
    options: {
      ...conditionOptions,
      stop: { type: 'boolean', default: false, help: 'stop the proxy this started (by its pid file) instead' },
      status: { type: 'boolean', default: false, help: 'print the running proxy and exit 0, or exit 1 when none runs' },
    },
    async run(values) {
      if (values.stop) return stop();
      if (values.status) return status();
      return start(values);
    },
  });
}
