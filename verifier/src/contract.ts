// An action's contract, declared before the action runs (the evidence paper, section 7.4): what the
// action is, which request it must cause, which terminal transport events count as success, what
// makes it semantically true (and which states say it is not), and how long to wait.
//
// validateContract() checks the shape and throws a ContractError naming the first bad field, so a
// malformed contract never reaches a page.
import type { Page, APIRequestContext } from 'playwright-core';
import type { Hop } from './correlate.ts';
import { pathOf, type EvidenceEvent } from './events.ts';

/** The request family the action must cause: its method, and its path (exact) or a URL pattern. */
export interface RequestFamily {
  method: string;
  /** the exact pathname a hop of the request's redirect chain is sent to */
  path?: string;
  /** or: a pattern tested on the hop's full URL */
  url?: RegExp;
}

/** HTTP statuses: single codes and inclusive [low, high] ranges. */
export type StatusSet = readonly (number | readonly [number, number])[];

export interface TransportSemantics {
  /** terminal statuses (the body completed) that are success; default 2xx */
  success?: StatusSet;
  /** terminal statuses that are failure; default 4xx and 5xx */
  failure?: StatusSet;
  /** a request that failed or was cut off (no completed body); default 'failure' */
  networkError?: 'failure' | 'ambiguous';
  /** any other terminal status (1xx, a final 3xx, none) is ambiguous */
}

/** What the predicates may use: the page, Playwright's request context (the page's cookies), the timeline so far. */
export interface ReadContext {
  page: Page;
  request: APIRequestContext;
  timeline: readonly EvidenceEvent[];
}

/** A pattern on the recorded timeline: an event of this source and type (e.g. an app's commit mark). */
export interface EventPattern {
  source: EvidenceEvent['source'];
  type: string;
}

export type SemanticPredicate =
  /** a state of the page: success when `success` matches an element, failure when a `negative` one does first */
  | { kind: 'dom'; success: string; negative?: readonly string[] }
  /** an independent read (an API read, a second page load): success when `success(value)` holds */
  | { kind: 'read-back'; read: (ctx: ReadContext) => Promise<unknown>; success: (value: unknown) => boolean; negative?: (value: unknown) => boolean }
  /** a result set: success when an item matches (or, with expect 'empty', when the set is explicitly empty) */
  | { kind: 'result-set'; read: (ctx: ReadContext) => Promise<readonly unknown[]>; matches: (item: unknown) => boolean; expect?: 'match' | 'empty' }
  /** an event on the timeline (what a page reports of its own commit, or a recorded trace) */
  | { kind: 'event'; success: EventPattern; negative?: readonly EventPattern[] };

/** The durable state read again through a separate path, after the semantic check. */
export interface ReRead {
  read: (ctx: ReadContext) => Promise<unknown>;
  holds: (value: unknown) => boolean;
}

/** Everything but the action: what a recorded timeline can be checked against (replay). */
export interface ContractTerms {
  /** the action's identity: it names the record */
  id: string;
  /** the request the action must cause, or 'none' when it must cause none */
  request: RequestFamily | 'none';
  transport?: TransportSemantics;
  semantic: SemanticPredicate;
  /** the independent re-read; a declared re-read that does not confirm fails the action */
  reread?: ReRead;
  /** the whole action, from the dispatch to the close, must fit in this many ms */
  timeoutMs: number;
  /** what unattributable or unclassifiable evidence becomes: an `ambiguous` record (default) or a `failed` one */
  ambiguity?: 'ambiguous' | 'fail';
  /** the action navigates the page (a link, a form post); otherwise a navigation mid-action fails it */
  navigates?: boolean;
  /** a selector whose text is recorded at ui-observed (it never decides anything) */
  ui?: string;
  /**
   * whether the action's write may be sent again while it is not known to have happened (retry.ts):
   * true for a write whose second copy changes nothing (set a field to a value); false (the default)
   * for one whose copies add up (an order, a payment, a comment, a message). A retry checks the
   * store first either way; when the store cannot be read, only a repeatable write is sent again.
   */
  repeatable?: boolean;
}

/** A contract with its action: what `verify` runs. */
export interface ActionContract extends ContractTerms {
  action: () => unknown | Promise<unknown>;
}

/** A malformed contract: `field` names what is wrong (e.g. "request.method"). */
export class ContractError extends TypeError {
  constructor(readonly field: string, message: string) {
    super(`action contract: ${field}: ${message}`);
    this.name = 'ContractError';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function checkStatusSet(field: string, set: unknown): void {
  if (!Array.isArray(set)) throw new ContractError(field, 'must be an array of statuses and [low, high] ranges');
  set.forEach((s, i) => {
    const ok = (n: unknown) => Number.isInteger(n) && (n as number) >= 100 && (n as number) <= 599;
    if (typeof s === 'number' ? !ok(s) : !(Array.isArray(s) && s.length === 2 && ok(s[0]) && ok(s[1]) && s[0] <= s[1])) {
      throw new ContractError(`${field}[${i}]`, 'must be an HTTP status (100-599) or a range [low, high] with low <= high');
    }
  });
}

export function inSet(status: number, set: StatusSet): boolean {
  return set.some((s) => (typeof s === 'number' ? s === status : status >= s[0] && status <= s[1]));
}

function checkPattern(field: string, p: unknown): void {
  if (!isObject(p)) throw new ContractError(field, 'must be an object { source, type }');
  if (!['dom', 'network', 'app', 'server', 'runner'].includes(p.source as string)) throw new ContractError(`${field}.source`, 'must be one of dom, network, app, server, runner');
  if (typeof p.type !== 'string' || !p.type) throw new ContractError(`${field}.type`, 'must be a non-empty string');
}

const checkFn = (field: string, v: unknown) => {
  if (typeof v !== 'function') throw new ContractError(field, 'must be a function');
};

/** Checks a contract's terms (withAction: its action too); throws a ContractError naming the field. */
export function validateContract(c: unknown, withAction = true): asserts c is ActionContract {
  if (!isObject(c)) throw new ContractError('(contract)', 'must be an object');
  if (typeof c.id !== 'string' || c.id.trim() === '') throw new ContractError('id', 'must be a non-empty string naming the action');
  if (withAction) checkFn('action', c.action);
  if (c.repeatable !== undefined && typeof c.repeatable !== 'boolean') throw new ContractError('repeatable', 'must be true or false');
  if (c.request !== 'none') {
    if (!isObject(c.request)) throw new ContractError('request', "must be { method, path } or { method, url }, or 'none'");
    const r = c.request;
    if (typeof r.method !== 'string' || !methods.includes(r.method.toUpperCase())) throw new ContractError('request.method', `must be one of ${methods.join(', ')}`);
    if ((r.path === undefined) === (r.url === undefined)) throw new ContractError('request.path', 'give exactly one of path (an exact pathname) or url (a RegExp)');
    if (r.path !== undefined && (typeof r.path !== 'string' || !r.path.startsWith('/'))) throw new ContractError('request.path', 'must be a pathname starting with /');
    if (r.url !== undefined && !(r.url instanceof RegExp)) throw new ContractError('request.url', 'must be a RegExp');
  }
  if (c.transport !== undefined) {
    if (!isObject(c.transport)) throw new ContractError('transport', 'must be an object');
    if (c.transport.success !== undefined) checkStatusSet('transport.success', c.transport.success);
    if (c.transport.failure !== undefined) checkStatusSet('transport.failure', c.transport.failure);
    if (c.transport.networkError !== undefined && !['failure', 'ambiguous'].includes(c.transport.networkError as string)) {
      throw new ContractError('transport.networkError', "must be 'failure' or 'ambiguous'");
    }
    const { success, failure } = transportOf(c as unknown as ContractTerms);
    for (let s = 100; s <= 599; s++) if (inSet(s, success) && inSet(s, failure)) throw new ContractError('transport.failure', `status ${s} is in both success and failure`);
  }
  const s = c.semantic;
  if (!isObject(s)) throw new ContractError('semantic', 'must be a semantic success predicate { kind: dom | read-back | result-set | event, … }');
  switch (s.kind) {
    case 'dom':
      if (typeof s.success !== 'string' || !s.success) throw new ContractError('semantic.success', 'must be a selector');
      if (s.negative !== undefined && !(Array.isArray(s.negative) && s.negative.every((n) => typeof n === 'string' && n))) throw new ContractError('semantic.negative', 'must be an array of selectors');
      break;
    case 'read-back':
      checkFn('semantic.read', s.read);
      checkFn('semantic.success', s.success);
      if (s.negative !== undefined) checkFn('semantic.negative', s.negative);
      break;
    case 'result-set':
      checkFn('semantic.read', s.read);
      checkFn('semantic.matches', s.matches);
      if (s.expect !== undefined && !['match', 'empty'].includes(s.expect as string)) throw new ContractError('semantic.expect', "must be 'match' or 'empty'");
      break;
    case 'event':
      checkPattern('semantic.success', s.success);
      if (s.negative !== undefined) {
        if (!Array.isArray(s.negative)) throw new ContractError('semantic.negative', 'must be an array of event patterns');
        s.negative.forEach((p, i) => checkPattern(`semantic.negative[${i}]`, p));
      }
      break;
    default:
      throw new ContractError('semantic.kind', 'must be dom, read-back, result-set or event');
  }
  if (c.reread !== undefined) {
    if (!isObject(c.reread)) throw new ContractError('reread', 'must be { read, holds }');
    checkFn('reread.read', c.reread.read);
    checkFn('reread.holds', c.reread.holds);
  }
  if (typeof c.timeoutMs !== 'number' || !Number.isFinite(c.timeoutMs) || c.timeoutMs <= 0) throw new ContractError('timeoutMs', 'must be a positive number of ms');
  if (c.ambiguity !== undefined && !['ambiguous', 'fail'].includes(c.ambiguity as string)) throw new ContractError('ambiguity', "must be 'ambiguous' or 'fail'");
  if (c.navigates !== undefined && typeof c.navigates !== 'boolean') throw new ContractError('navigates', 'must be a boolean');
  if (c.ui !== undefined && (typeof c.ui !== 'string' || !c.ui)) throw new ContractError('ui', 'must be a selector');
}

const defaultSuccess: StatusSet = [[200, 299]];
const defaultFailure: StatusSet = [[400, 599]];

/** The transport semantics with their defaults filled in. */
export function transportOf(c: ContractTerms): Required<TransportSemantics> {
  return {
    success: c.transport?.success ?? defaultSuccess,
    failure: c.transport?.failure ?? defaultFailure,
    networkError: c.transport?.networkError ?? 'failure',
  };
}

/** The request family as a test on one hop of a chain. */
export function hopMatcher(family: RequestFamily): (hop: Hop) => boolean {
  const method = family.method.toUpperCase();
  return (hop) => hop.method === method && (family.path !== undefined ? pathOf(hop.url) === family.path : family.url!.test(hop.url));
}

/** How a record names the family it looked for. */
export const describeFamily = (f: RequestFamily | 'none') =>
  f === 'none' ? 'no request' : `${f.method.toUpperCase()} ${f.path ?? String(f.url)}`;
