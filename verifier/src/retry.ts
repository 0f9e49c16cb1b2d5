// The retry pattern: act again only after the store says the first write did not happen.
//
// A write whose answer was lost (a reset connection, a timeout after the app committed) looks failed
// to the page and to `verify`: the record ends `failed` or `ambiguous`. Acting again at once is what
// a retry loop does, and the store then holds the write twice. `verifyWithRetry` runs the action
// under its contract and, before each repeat, reads the store through the contract's own read (its
// re-read, else its read-back or result-set predicate), outside any action:
//
//   verify(contract) ─ closed ──────────────────────────────────────────────▶ closed
//        │ failed / ambiguous
//        ▼
//   the store read (after settleMs) ─ holds ────────────────────────────────▶ already-done (no second write)
//        │ does not hold               │ cannot be read (no read, or it threw)
//        ▼                             ▼
//   attempts left? act again      repeatable? act again : stop ─────────────▶ not-repeated (fail closed)
//        │ none left
//        ▼
//   attempts-exhausted
//
// A store that says "not yet" can still be a write in flight (a commit behind a queue): settleMs is
// how long to let it land before reading; the check is read once per repeat, never polled forever.
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { validateContract, ContractError, type ActionContract, type ReadContext } from './contract.ts';
import type { Verifier, VerifyResult } from './verify.ts';

export interface RetryOptions {
  /** how many times the action may run in all, the first included (default 3) */
  attempts?: number;
  /** how long to wait after a failed attempt before reading the store (default 500 ms) */
  settleMs?: number;
}

/** One read of the store between two attempts: whether the write's effect held, or why it could not be read. */
export interface StoreCheck {
  /** after which attempt (1 = the first) */
  after: number;
  /** ms from the first dispatch, on this process's clock */
  t_ms: number;
  held: boolean | null;
  error?: string;
}

export interface RetryResult {
  /** closed when an attempt closed or the store showed the write done; else the last attempt's state */
  state: 'closed' | 'failed' | 'ambiguous';
  ended: 'closed' | 'already-done' | 'not-repeated' | 'attempts-exhausted';
  /** every attempt's record, in order */
  records: VerifyResult[];
  checks: StoreCheck[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The store read a contract declares: its re-read, else a read-back or result-set predicate; null when it declares none. */
export function storeRead(contract: ActionContract): ((ctx: ReadContext) => Promise<boolean>) | null {
  if (contract.reread) { const r = contract.reread; return async (ctx) => r.holds(await r.read(ctx)); }
  const s = contract.semantic;
  if (s.kind === 'read-back') return async (ctx) => s.success(await s.read(ctx));
  if (s.kind === 'result-set') {
    return async (ctx) => {
      const items = await s.read(ctx);
      return s.expect === 'empty' ? items.length === 0 : items.some((item) => s.matches(item));
    };
  }
  return null;
}

/** Runs the action under its contract, acting again only as the pattern above allows. */
export async function verifyWithRetry(verifier: Verifier, page: Page, contract: ActionContract, options: RetryOptions = {}): Promise<RetryResult> {
  validateContract(contract);
  const attempts = options.attempts ?? 3;
  const settleMs = options.settleMs ?? 500;
  if (!Number.isInteger(attempts) || attempts < 1) throw new ContractError('(retry) attempts', 'must be a whole number, 1 or more');
  if (!Number.isFinite(settleMs) || settleMs < 0) throw new ContractError('(retry) settleMs', 'must be 0 or more ms');
  const read = storeRead(contract);
  const records: VerifyResult[] = [];
  const checks: StoreCheck[] = [];
  const t0 = performance.now();
  for (let attempt = 1; ; attempt++) {
    const record = await verifier.verify(contract);
    records.push(record);
    if (record.state === 'closed') return { state: 'closed', ended: 'closed', records, checks };
    const last = record.state === 'ambiguous' ? 'ambiguous' : 'failed';
    if (attempt >= attempts) return { state: last, ended: 'attempts-exhausted', records, checks };
    // before acting again: did the write happen after all?
    await sleep(settleMs);
    let held: boolean | null = null;
    let error: string | undefined;
    if (read) {
      try {
        held = await read({ page, request: page.request, timeline: record.timeline });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    } else error = 'the contract declares no read of the store';
    checks.push({ after: attempt, t_ms: Math.round((performance.now() - t0) * 1000) / 1000, held, ...(error ? { error } : {}) });
    if (held === true) return { state: 'closed', ended: 'already-done', records, checks };
    if (held === null && contract.repeatable !== true) return { state: last, ended: 'not-repeated', records, checks };
  }
}
