// Transport faults: what happens to a request on its way between the browser and the app, beside
// (or on top of) a condition's layer. The faults are data (proxy/faults/transport.json): each
// matches one kind of request, fires by one of WAREX's rules on the count of matching requests since
// the condition was loaded, and does one thing. Pure functions here; the proxy (proxy.ts) counts and
// applies them.
//
//   transport.json ──(fault, severity)──▶ { match, fire, effect } ─┐
//   seed ──rng(seed, 'transport', fault, severity)──▶ the status ──┴─▶ TransportPlan
//   each matching request ──count n (per URL for assets)──▶ fires(rule, n)? ──▶ the effect, or pass
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationError } from './errors.ts';
import { validate } from './validate.ts';
import { rng } from './random.ts';
import type { FaultTransport, TransportFire } from './contracts.ts';

/** The proxy's own transport table: faults/transport.json, beside src/ (and dist/). */
export const transportTableFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'faults', 'transport.json');
const tableFile = transportTableFile;

/** A transport fault's name: a key of the table in use (the proxy's own, or a user's). */
export type TransportFaultName = string;

/** A transport table value, checked against its schema (`where` names it in messages). */
export function checkTransportTable(value: unknown, where = 'the transport table'): FaultTransport {
  return validate<FaultTransport>('fault-transport', value, { file: where });
}

/** The transport table file, checked against its schema. */
export function readTransportTable(file = tableFile): FaultTransport {
  return checkTransportTable(JSON.parse(fs.readFileSync(file, 'utf8')), path.relative(process.cwd(), file) || file);
}

let table: FaultTransport | undefined;
/** The proxy's own table (proxy/faults/transport.json), read once. */
export const transportTable = (): FaultTransport => (table ??= readTransportTable());

/** The faults a table names, in its order: the only list of names there is (no fixed one in code). */
export const transportFaultNames = (faultTable: FaultTransport = transportTable()): string[] => Object.keys(faultTable.faults);

/** WAREX's firing rules on the n-th matching request (n from 1): the k-th only, the first k, each k-th. */
export function fires(fire: TransportFire, n: number): boolean {
  if (!Number.isInteger(n) || n < 1) return false;
  if (fire.rule === 'kth') return n === fire.k;
  if (fire.rule === 'first') return n <= fire.k;
  return n % fire.k === 0;
}

/** One condition's transport fault, resolved: what matches, when it fires, what it does. */
export type TransportEffect =
  | { kind: 'answer'; status: number; delayMs: number }
  | { kind: 'delay'; delayMs: number }
  | { kind: 'lose'; how: 'reset' | 'timeout'; holdMs: number }
  | { kind: 'popup'; title: string; button: string };

export interface TransportPlan {
  fault: TransportFaultName;
  severity: 1 | 2 | 3;
  match: 'page' | 'write' | 'asset';
  fire: TransportFire;
  effect: TransportEffect;
}

export interface TransportCondition { fault: TransportFaultName; severity: 1 | 2 | 3 }

/** The transport plan of a condition; a malformed one is a ValidationError naming the field. */
export function transportPlanFor(condition: TransportCondition, seed: string, family: string, faultTable: FaultTransport = transportTable()): TransportPlan {
  const where = 'the condition';
  if (!Object.hasOwn(faultTable.faults, condition.fault)) throw new ValidationError(where, null, 'transport.fault', `must be one of the table's faults ${JSON.stringify(transportFaultNames(faultTable))}`);
  if (![1, 2, 3].includes(condition.severity)) throw new ValidationError(where, null, 'transport.severity', 'must be 1, 2 or 3');
  const entry = faultTable.faults[condition.fault]!;
  const level = entry.severities[condition.severity - 1]!;
  const e = level.effect;
  let effect: TransportEffect;
  if (e.answer) {
    const statuses = e.answer.statuses;
    const status = statuses.length === 1 ? statuses[0]! : rng(seed, 'fault-proxy-transport', family, condition.fault, condition.severity).pick(statuses);
    effect = { kind: 'answer', status, delayMs: e.answer.delay_ms };
  } else if (e.delay) effect = { kind: 'delay', delayMs: e.delay.delay_ms };
  else if (e.lose) effect = { kind: 'lose', how: e.lose.how, holdMs: e.lose.hold_ms };
  else if (e.popup) effect = { kind: 'popup', title: e.popup.title, button: e.popup.button };
  else throw new ValidationError(where, null, `transport (${condition.fault})`, 'its effect is none of answer, delay, lose, popup');
  return { fault: condition.fault, severity: condition.severity, match: entry.match, fire: level.fire, effect };
}

/**
 * The small error page the proxy answers with (no script, nothing of the app's). Its length is in
 * its headers, so that its end is in the answer and not only in the connection closing. It carries
 * no Cache-Control: Chromium emits no `requestfinished` for a `no-store` answer the page does not
 * read (a fetch() whose body is never read), so a verifier waiting on transport evidence saw the
 * error only at its timeout (issue 48; test/proxy/framing.test.ts); and none of its
 * statuses (408, 429, 5xx but 501) is cacheable without explicit freshness anyway.
 */
export function errorPage(status: number): { statusCode: number; headers: Record<string, string>; body: string } {
  const reason: Record<number, string> = { 408: 'Request Timeout', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };
  const text = reason[status] ?? 'Error';
  const body = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${status} ${text}</title></head><body><h1>${text}</h1><p>The server could not handle the request. Try again later.</p></body></html>\n`;
  return {
    statusCode: status,
    headers: { 'content-type': 'text/html; charset=UTF-8', 'content-length': String(Buffer.byteLength(body, 'utf8')), ...(status === 429 || status === 503 ? { 'retry-after': '1' } : {}) },
    body,
  };
}
