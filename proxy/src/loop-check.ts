// mockttp's pass-through loop check, made exact. Before it forwards a request, mockttp 4.6.5 asks
// whether the incoming socket is the far end of one of its own outgoing sockets (a proxy forwarding
// to itself), and answers the request 500 "Passthrough loop detected" when it is
// (dist/rules/requests/request-step-impls.js, PassThroughStepImpl.handle). It compares one end only:
// the outgoing socket's local address and port against the incoming one's remote address and port.
// On loopback that is not enough. Linux hands the same ephemeral port to two connections whose
// destinations differ (127.0.0.1:X → the proxy and 127.0.0.1:X → the app can be open at once; of
// 3,000 loopback connections to two servers here, 148 shared a local port with an open one), so a
// page request now and then got mockttp's 500 in place of the app's page: a fault no condition
// asked for, seen by the agent as the app's. That is what failed make test once in CI (the State
// check of test/proxy/browsers.test.ts: the form's GET answered 500).
//
// A loop is the same connection seen from both ends: the outgoing socket's local end is the
// incoming socket's remote end *and* its remote end is the incoming socket's local end (the
// proxy's own port). This replaces mockttp's check with that four-part test, on the module mockttp
// itself calls it through, once per process. A real loop cannot reach it anyway: a request for the
// proxy's own address is closed before any pass-through (proxy.ts, forwardsTo). Fail closed: another
// mockttp without that function, or with one of another shape, refuses to load the proxy.
import { createRequire } from 'node:module';
import type net from 'node:net';

type SocketEnds = Pick<net.Socket, 'localAddress' | 'localPort' | 'remoteAddress' | 'remotePort'>;
type LoopCheck = (outgoing: Iterable<SocketEnds>, incoming: SocketEnds) => boolean;

const require = createRequire(import.meta.url);
const socketUtil = require('mockttp/dist/util/socket-util') as { isSocketLoop?: LoopCheck };

/** '::ffff:127.0.0.1' and '127.0.0.1' are one address */
function address(ip: string | undefined): string | undefined {
  return ip?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
}

/** True when an outgoing socket and the incoming one are the two ends of one connection. */
export const isSameConnection: LoopCheck = (outgoing, incoming) => {
  for (const out of outgoing) {
    if (!out.localPort || !out.remotePort) continue; // closed: no loop through it
    if (
      address(out.localAddress) === address(incoming.remoteAddress) && out.localPort === incoming.remotePort &&
      address(out.remoteAddress) === address(incoming.localAddress) && out.remotePort === incoming.localPort
    ) return true;
  }
  return false;
};

/** Puts the exact check in place of mockttp's (idempotent). */
export function useExactLoopCheck(): void {
  const current = socketUtil.isSocketLoop;
  if (typeof current !== 'function' || current.length !== 2) {
    throw new Error("this mockttp has no isSocketLoop(outgoingSockets, incomingSocket) in dist/util/socket-util (mockttp 4.6.5 has): refusing to start a proxy whose loop check answers 500 for a shared loopback port");
  }
  socketUtil.isSocketLoop = isSameConnection;
}
