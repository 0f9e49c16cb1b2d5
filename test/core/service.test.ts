// core/service.ts and core/command.ts with real processes: a tiny HTTP server
// (test/core/service/http-server.mjs) started, waited for, found by its pid file and stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ExecaError } from 'execa';
import { assertPortFree, parentPid, portFree, processName, runningPid, socketOwner, spawnDetached, stopService, tcpListeners, waitUntilReady, logTail, type Service } from '../../core/service.ts';
import { runCommand } from '../../core/command.ts';
import { CommandError, ServiceError } from '../../core/errors.ts';

const server = path.join(path.dirname(fileURLToPath(import.meta.url)), 'service', 'http-server.mjs');

/** A port nothing listens on now (the kernel's pick). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

function stateFolder(t: { after: (fn: () => void) => void }): { dir: string; service: Service } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-service-'));
  const service: Service = { name: 'test-server', comm: 'node', pidFile: path.join(dir, 'server.pid'), logFile: path.join(dir, 'server.log') };
  t.after(() => {
    const pid = runningPid(service);
    if (pid !== null) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { dir, service };
}

const answers = async (port: number) => {
  try { return (await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) })).ok; } catch { return false; }
};

test('start → ready → stop: the pid file names the process, it listens on 127.0.0.1 only, stop ends it and removes the pid file', async (t) => {
  const { service } = stateFolder(t);
  const port = await freePort();
  const started = spawnDetached(service, process.execPath, [server, String(port), service.logFile], { writePid: true });
  await waitUntilReady(service.name, `answering on ${port}`, () => answers(port), { timeoutMs: 20_000, exited: started.exited, lastSeen: () => logTail(service.logFile) });
  assert.equal(runningPid(service), started.pid);
  const listening = tcpListeners().filter((l) => l.pid === started.pid);
  assert.deepEqual(listening.map((l) => `${l.address}:${l.port}`), [`127.0.0.1:${port}`]);
  assert.equal(await portFree(port), false);

  assert.equal(await stopService(service), started.pid);
  assert.equal(processName(started.pid), null, 'the process is gone');
  assert.equal(fs.existsSync(service.pidFile), false);
  // nothing listens on the port any more (whether it can be bound again at once also depends on the
  // rest of the machine: a kernel-chosen port may be handed to another process's connection meanwhile)
  assert.deepEqual(tcpListeners().filter((l) => l.port === port), [], 'no socket listens on the port');
});

test('a listening socket a forked worker inherits is owned by the parent that forked it, whichever pid is lower; every holder is listed', async (t) => {
  // a real forking server: python listens, then forks a worker that inherits the socket (as Apache does)
  const script = 'import os,socket,sys,time\ns=socket.socket();s.bind(("127.0.0.1",0));s.listen()\nif os.fork()==0:\n  time.sleep(60);sys.exit(0)\nprint(s.getsockname()[1],flush=True);time.sleep(60)';
  const child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let holders: number[] = [];
  t.after(() => { for (const h of [child.pid!, ...holders]) { try { process.kill(h, 'SIGKILL'); } catch { /* gone */ } } });
  const port = Number(await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim()))));
  await waitUntilReady('forking listener', 'its worker holding the socket', async () => (tcpListeners().find((l) => l.port === port)?.holders.length ?? 0) === 2, { timeoutMs: 10_000 });
  const listener = tcpListeners().find((l) => l.port === port)!;
  holders = listener.holders;
  const worker = listener.holders.find((p) => p !== child.pid)!;
  assert.equal(parentPid(worker), child.pid, 'the other holder is the forked worker');
  assert.equal(listener.pid, child.pid, 'the parent owns it');
  // after a pid wrap-around the worker can have the lower pid: the owner is still the parent
  const wrapped = (pid: number) => ({ 30000: 1, 120: 30000 } as Record<number, number>)[pid] ?? null;
  assert.equal(socketOwner([120, 30000], wrapped), 30000);
  assert.equal(socketOwner([30000, 120], wrapped), 30000);
  assert.equal(socketOwner([], wrapped), null);
});

test('stop when nothing runs: no pid file, or a stale one naming another program, stops nothing and kills no stranger', async (t) => {
  const { service } = stateFolder(t);
  assert.equal(await stopService(service), null);
  const stranger = spawn('sleep', ['60'], { stdio: 'ignore' });
  t.after(() => stranger.kill('SIGKILL'));
  fs.writeFileSync(service.pidFile, `${stranger.pid}\n`); // a pid file left by a reboot, its pid reused by another program
  assert.equal(runningPid(service), null);
  assert.equal(await stopService(service), null);
  assert.equal(processName(stranger.pid!), 'sleep', 'the other program still runs');
  assert.equal(fs.existsSync(service.pidFile), false, 'the stale pid file is removed');
});

test('a port already taken: the error names the port and who holds it (this test\'s own node process)', async (t) => {
  const holder = net.createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  t.after(() => holder.close());
  const { port } = holder.address() as net.AddressInfo;
  await assert.rejects(assertPortFree('test-server', port, 'set TEST_PORT'), (e: unknown) => {
    assert.ok(e instanceof ServiceError);
    assert.match(e.message, new RegExp(`^test-server: 127\\.0\\.0\\.1:${port} is already taken by node \\(pid ${process.pid}: .*\\); set TEST_PORT$`));
    return true;
  });
});

test('a server that exits before it is ready: the wait fails at once, with how it ended and its log\'s last lines', async (t) => {
  const { service } = stateFolder(t);
  const port = await freePort();
  const started = spawnDetached(service, process.execPath, [server, String(port), service.logFile, 'exit-early']);
  await assert.rejects(
    waitUntilReady(service.name, 'answering', () => answers(port), { timeoutMs: 60_000, exited: started.exited, lastSeen: () => logTail(service.logFile) }),
    (e: unknown) => e instanceof ServiceError && /^test-server: exited with code 3 before answering; last seen:\n {2}starting\n {2}fatal: no config file$/.test(e.message));
});

test('a wait that runs out of time says what it last saw', async () => {
  await assert.rejects(
    waitUntilReady('test-server', 'ready', () => false, { timeoutMs: 300, intervalMs: 50, lastSeen: () => 'status: booting' }),
    (e: unknown) => e instanceof ServiceError && e.message === 'test-server: not ready within 300 ms; last seen:\n  status: booting');
});

test('a server that ignores TERM is killed after the grace time: nothing is left running', async (t) => {
  const { service } = stateFolder(t);
  const port = await freePort();
  const started = spawnDetached(service, process.execPath, [server, String(port), service.logFile, 'ignore-term'], { writePid: true });
  await waitUntilReady(service.name, 'answering', () => answers(port), { timeoutMs: 20_000, exited: started.exited });
  assert.equal(await stopService(service, { graceMs: 500 }), started.pid);
  assert.equal(processName(started.pid), null);
  assert.match(fs.readFileSync(service.logFile, 'utf8'), /TERM ignored/, 'it was asked with TERM first');
});

test('a failed command: a CommandError with the command, its exit code and the last lines of its stderr; execa\'s error is its cause', async () => {
  const script = 'for i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i" >&2; done; exit 4';
  await assert.rejects(runCommand('sh', ['-c', script]), (e: unknown) => {
    assert.ok(e instanceof CommandError);
    assert.ok(e.cause instanceof ExecaError);
    assert.match(e.message, /^sh -c 'for i in .*exit 4': exited with code 4; the last lines of its stderr:\n {2}line 3\n[\s\S]* {2}line 10$/);
    assert.doesNotMatch(e.message, /line 2\n/, 'only the last lines');
    return true;
  });
  await assert.rejects(runCommand('no-such-program-rstack'), (e: unknown) => e instanceof CommandError && e.message === 'no-such-program-rstack: not found (is it installed?)');
  assert.equal(await runCommand('sh', ['-c', 'cat'], { input: 'typed in' }), 'typed in');
});
