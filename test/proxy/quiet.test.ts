// shares the machine: it waits on events (the proxy's, mockttp's console line), never on a duration.
// A request the client abandons before the app answers: mockttp prints "Failed to handle request:
// socket hang up", naming nothing (131 times in one run-user-app run, issue 48). The proxy keeps that
// exact line out of the console (proxy/src/quiet.ts), and its log names the request; any other
// line of mockttp's still prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFaultProxy, type ProxyEvent } from '../../proxy/src/index.ts';
import { formSpec } from './form-app.ts';

test("an abandoned request: mockttp's line kept out of the console, the request named in the proxy's log", async (t) => {
  // what reaches the console, below the proxy's filter
  const printed: unknown[][] = [];
  const realError = console.error;
  console.error = (...args: unknown[]) => { printed.push(args); };
  // an app that answers only when told, so that the client is gone first
  let answer: () => void = () => {};
  const server = http.createServer((req, res) => { answer = () => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('late'); }; });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let abandoned: (event: ProxyEvent) => void = () => {};
  const eventSeen = new Promise<ProxyEvent>((resolve) => { abandoned = resolve; });
  const proxy = await startFaultProxy({ onEvent: (e) => { if (e.error !== undefined) abandoned(e); } });
  t.after(async () => { console.error = realError; await proxy.close(); server.closeAllConnections(); server.close(); });
  // what mockttp prints, above the filter (the proxy installed it at start)
  const filtered = console.error;
  let mockttpLine: (args: unknown[]) => void = () => {};
  const lineSeen = new Promise<unknown[]>((resolve) => { mockttpLine = resolve; });
  console.error = (...args: unknown[]) => { if (args[0] === 'Failed to handle request:') mockttpLine(args); filtered(...args); };
  proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: 'quiet' });

  const arrived = new Promise<void>((resolve) => server.once('request', () => resolve()));
  const client = net.connect(proxy.port, '127.0.0.1', () => client.write(`GET ${origin}/slow HTTP/1.1\r\nHost: x\r\n\r\n`));
  client.on('error', () => {});
  await arrived;
  client.destroy();
  const event = await eventSeen;
  assert.equal(event.url, `${origin}/slow`);
  assert.equal(event.error, 'the connection closed before an answer');
  assert.deepEqual(await lineSeen, ['Failed to handle request:', 'socket hang up'], "mockttp's own line, naming no request");
  answer();
  assert.deepEqual(printed, [], 'nothing of it reached the console');
  console.error('Failed to handle request:', 'something else');
  assert.deepEqual(printed, [['Failed to handle request:', 'something else']], 'any other line still prints');
});
