// The proxy's own requests to the app (beside mockttp's pass-through): a held write forwarded late
// (the State layer), and the GET a json-echo answer is made from. The same trust as the
// pass-through: Node's roots and the CAs the proxy was given for the app's own HTTPS.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

/** A request as the browser sent it: its absolute URL, headers as written, its body. */
export interface HeldRequest {
  method: string;
  url: string;
  rawHeaders: [string, string][];
  body: Buffer;
}

export interface AppAnswer {
  status: number;
  rawHeaders: [string, string][];
  body: Buffer;
}

// headers of one hop only, never forwarded (RFC 9110 7.6.1), and what the proxy sets itself
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length']);

/** An answer read to its end: its status, its headers as written (name, value), its body. */
export function readAnswer(res: http.IncomingMessage): Promise<AppAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const raw: [string, string][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
      resolve({ status: res.statusCode ?? 0, rawHeaders: raw, body: Buffer.concat(chunks) });
    });
    res.on('error', reject);
  });
}

/** Sends a request to the app and reads its whole answer; `ca`: PEM certificates trusted beside Node's roots. */
export function sendToApp(request: HeldRequest, options: { ca: string[]; signal?: AbortSignal; timeoutMs?: number }): Promise<AppAnswer> {
  const url = new URL(request.url);
  const headers: string[] = [];
  for (const [name, value] of request.rawHeaders) if (!hopByHop.has(name.toLowerCase())) headers.push(name, value);
  if (request.body.length > 0 || !['GET', 'HEAD'].includes(request.method.toUpperCase())) headers.push('Content-Length', String(request.body.length));
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      method: request.method,
      hostname,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      signal: options.signal,
      timeout: options.timeoutMs ?? 30_000,
      ...(secure ? { servername: net.isIP(hostname) ? undefined : hostname, ca: [...tls.rootCertificates, ...options.ca] } : {}),
    }, (res) => { readAnswer(res).then(resolve, reject); });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${options.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(request.body);
  });
}
