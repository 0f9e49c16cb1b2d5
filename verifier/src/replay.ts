// A contract checked against a recorded timeline (a trace row's `events`): the same stages and the
// same transition table as the live verifier, with every move stamped at the time the evidence it
// needed was recorded (never earlier than the move before). The window is the trace's own: from
// the clock mapping's uncertainty before the dispatch to its horizon, or the contract's timeout if
// that comes first. What a recording cannot hold — a DOM state, a read-back — fails closed.
import { horizonOf, windowOf } from './correlate.ts';
import type { Timeline } from './events.ts';
import { describeFamily, validateContract, type ContractTerms } from './contract.ts';
import { declared, step, type EvidenceInput, type EvidenceRecord } from './machine.ts';
import { chainDetail, correlationStage, eventStage, firstRendering, transportStage } from './stages.ts';

export function replay(terms: ContractTerms, timeline: Timeline): EvidenceRecord {
  validateContract(terms, false);
  const window = { start: windowOf(timeline).start, end: Math.min(horizonOf(timeline), terms.timeoutMs) };
  let record = declared(terms.id);
  let now = 0;
  const move = (input: EvidenceInput, at: number, detail: Record<string, unknown> = {}) => {
    now = Math.max(now, at);
    record = step(record, input, now, detail);
  };
  const unclear = (at: number, reason: string, detail: Record<string, unknown> = {}) =>
    move(terms.ambiguity === 'fail' ? 'fail' : 'ambiguity', at, { reason, ...detail });
  const timeout = (what: string) => move('fail', window.end, { reason: `timeout: ${what} within ${window.end} ms` });

  move('dispatch', 0, { request: describeFamily(terms.request), semantic: terms.semantic.kind, timeout_ms: terms.timeoutMs });

  const rendering = firstRendering(timeline, window);
  move('observe-ui', 0, rendering ? { rendered: rendering.type, rendered_t_ms: rendering.t_ms } : { rendered: null });

  const c = correlationStage(timeline, terms.request, window);
  if (c.kind === 'ambiguous') return (unclear(0, `${c.request_ids.length} requests of the family ${describeFamily(terms.request)} were sent; none can be attributed`, { request_ids: c.request_ids }), record);
  if (c.kind === 'uncorrelated') return (timeout(`no request ${describeFamily(terms.request)} was sent (${c.unrelated.length} unrelated)`), record);
  if (c.kind === 'none-expected') {
    move('correlate', 0, { expected: 'none' });
    move('resolve-transport', 0, { expected: 'none' });
  } else {
    move('correlate', c.chain.request_t_ms, chainDetail(c.chain));
    const t = transportStage(c.chain, terms);
    if (t.kind === 'pending') return (timeout(`the request ${c.chain.request_id} reached no terminal event`), record);
    const detail = { status: t.status, terminal: t.terminal, terminal_t_ms: t.t_ms };
    if (t.kind === 'failure') return (move('fail', t.t_ms, { reason: t.reason, ...detail }), record);
    if (t.kind === 'ambiguous') return (unclear(t.t_ms, t.reason, detail), record);
    move('resolve-transport', t.t_ms, detail);
  }

  const s = terms.semantic;
  if (s.kind !== 'event') return (move('fail', now, { reason: `a ${s.kind} predicate cannot be evaluated on a recorded timeline` }), record);
  const sem = eventStage(timeline, s.success, s.negative ?? [], window);
  if (sem.kind === 'pending') return (timeout(`the semantic predicate (${s.success.source} ${s.success.type}) did not hold`), record);
  if (sem.kind === 'negative') return (move('fail', sem.t_ms, { reason: `negative state: ${sem.detail.event}`, ...sem.detail }), record);
  move('check-semantics', sem.t_ms, sem.detail);

  if (terms.reread) return (move('fail', now, { reason: 'missing read-back: a recorded timeline holds no re-read' }), record);
  move('re-read', now, { declared: false });
  move('close', now);
  return record;
}
