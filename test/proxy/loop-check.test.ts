// shares the machine: no browser; real HTTP on 127.0.0.1 (port 0).
// mockttp's pass-through loop check, made exact (proxy/src/loop-check.ts): two loopback
// connections that share a local port are not a loop; the two ends of one connection are. And the
// check the proxy installs is the one mockttp calls on each request (a check that says "loop" turns
// the app's page into mockttp's 500; the proxy's own passes it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createRequire } from 'node:module';
import { startFaultProxy } from '../../proxy/src/index.ts';
import { isSameConnection } from '../../proxy/src/loop-check.ts';
import { startFormApp } from './form-app.ts';
import { answered, viaProxy } from './via-proxy.ts';

const socketUtil = createRequire(import.meta.url)('mockttp/dist/util/socket-util') as { isSocketLoop: (...args: unknown[]) => boolean };
/** mockttp's own check, as loaded (no proxy has started when this file's first test runs) */
const mockttpOwn = socketUtil.isSocketLoop;
const ends = (localAddress: string, localPort: number, remoteAddress: string, remotePort: number) => ({ localAddress, localPort, remoteAddress, remotePort });

test('two loopback connections sharing a local port are not a loop; the two ends of one connection are', () => {
  const proxyPort = 40001, appPort = 40002, shared = 51234;
  // the proxy's connection to the app, and the browser's to the proxy, both from 127.0.0.1:51234 (Linux allows it: the destinations differ)
  const toApp = ends('127.0.0.1', shared, '127.0.0.1', appPort);
  const fromBrowser = ends('127.0.0.1', proxyPort, '127.0.0.1', shared); // as the proxy's accepted socket sees it
  assert.equal(isSameConnection([toApp], fromBrowser), false, 'a shared port: no loop');
  // what mockttp 4.6.5's own check says of the same pair: a loop (the 500 this replaces)
  assert.notEqual(mockttpOwn, isSameConnection, "mockttp's own check, before any proxy started");
  assert.equal(mockttpOwn(new Set([toApp]), fromBrowser), true, "mockttp's check: a loop");
  // a real loop: the proxy connected to itself; its outgoing socket's far end is the incoming socket's near end
  const toSelf = ends('127.0.0.1', shared, '127.0.0.1', proxyPort);
  assert.equal(isSameConnection([toApp, toSelf], fromBrowser), true, 'the same connection seen from both ends');
  assert.equal(isSameConnection([ends('::ffff:127.0.0.1', shared, '::ffff:127.0.0.1', proxyPort)], fromBrowser), true, 'an IPv4-mapped address is the same address');
  // a closed socket has no ends
  assert.equal(isSameConnection([{ localAddress: undefined, localPort: undefined, remoteAddress: undefined, remotePort: undefined } as never], fromBrowser), false);
});

test("the proxy puts the exact check in place of mockttp's, and mockttp calls it on each request", async (t) => {
  const app = await startFormApp();
  t.after(() => app.close());
  const proxy = await startFaultProxy();
  t.after(() => proxy.close());
  assert.equal(socketUtil.isSocketLoop, isSameConnection, 'on the module mockttp requires');

  // a check that calls everything a loop: mockttp answers the page itself, 500
  const seen: { outgoing: number; incomingPort: number | undefined }[] = [];
  socketUtil.isSocketLoop = (outgoing: unknown, incoming: unknown) => {
    seen.push({ outgoing: (outgoing as Set<net.Socket>).size, incomingPort: (incoming as net.Socket).localPort });
    return true;
  };
  try {
    const looped = answered(await viaProxy(proxy.url, `${app.origin}/form`));
    assert.equal(looped.status, 500);
    assert.match(looped.body.toString('utf8'), /Passthrough loop detected/);
  } finally {
    socketUtil.isSocketLoop = isSameConnection as never;
  }
  assert.equal(seen.length, 1, 'asked once, for the one request');
  assert.equal(seen[0]!.incomingPort, proxy.port, "with the browser's socket as the proxy accepted it");
  assert.equal(app.requests.length, 0, 'the app never saw it');

  const passed = answered(await viaProxy(proxy.url, `${app.origin}/form`));
  assert.equal(passed.status, 200);
  assert.deepEqual(app.requests, ['GET /form']);
});
