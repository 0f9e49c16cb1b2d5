// The evidence record's state machine, written as data (the evidence paper, section 9):
//
//   declared ─dispatch─▶ dispatched ─observe-ui─▶ ui-observed ─correlate─▶ correlated
//     ─resolve-transport─▶ transport-resolved ─check-semantics─▶ semantic-checked ─re-read─▶ re-read
//     ─close─▶ closed (success)
//   and from any stage after the dispatch: ─fail─▶ failed (reason); from the stages where evidence
//   can be unattributable or contradictory: ─ambiguity─▶ ambiguous (reason).
//
// Monotonic: a record only moves forward along this table, every move is kept with its time on one
// clock (ms from the dispatch), and a terminal state accepts nothing. Only `close` reaches success,
// and only from `re-read`, so no stage can be skipped on the way to a success.

export const evidenceStates = [
  'declared',
  'dispatched',
  'ui-observed',
  'correlated',
  'transport-resolved',
  'semantic-checked',
  're-read',
  'closed',
  'failed',
  'ambiguous',
] as const;
export type EvidenceState = (typeof evidenceStates)[number];

export const evidenceInputs = [
  'dispatch',
  'observe-ui',
  'correlate',
  'resolve-transport',
  'check-semantics',
  're-read',
  'close',
  'fail',
  'ambiguity',
] as const;
export type EvidenceInput = (typeof evidenceInputs)[number];

export const terminalStates: readonly EvidenceState[] = ['closed', 'failed', 'ambiguous'];

/** The transition table: state → input → next state. A pair that is not here is illegal. */
export const transitions: Readonly<Record<EvidenceState, Readonly<Partial<Record<EvidenceInput, EvidenceState>>>>> = {
  declared: { dispatch: 'dispatched' },
  dispatched: { 'observe-ui': 'ui-observed', fail: 'failed' },
  'ui-observed': { correlate: 'correlated', fail: 'failed', ambiguity: 'ambiguous' },
  correlated: { 'resolve-transport': 'transport-resolved', fail: 'failed', ambiguity: 'ambiguous' },
  'transport-resolved': { 'check-semantics': 'semantic-checked', fail: 'failed', ambiguity: 'ambiguous' },
  'semantic-checked': { 're-read': 're-read', fail: 'failed', ambiguity: 'ambiguous' },
  're-read': { close: 'closed', fail: 'failed' },
  closed: {},
  failed: {},
  ambiguous: {},
};

/** What each state means, for a reader of a record (README's table says the same). */
export const stateMeanings: Readonly<Record<EvidenceState, string>> = {
  declared: 'the contract is registered; the action has not run',
  dispatched: 'the action was called; t = 0 of the record is this moment',
  'ui-observed': 'what the page rendered after the action was recorded; it proves a rendering, nothing more',
  correlated: 'exactly one request of the declared family was sent after the dispatch (or the contract expects none)',
  'transport-resolved': "the correlated request reached a terminal event the contract calls success",
  'semantic-checked': 'the semantic success predicate held, and no declared negative state was seen first',
  're-read': 'the independent read-back confirmed the committed state (or the contract declares none)',
  closed: 'success: every stage of the contract was satisfied, in order',
  failed: 'the contract was not satisfied: a failure, a negative state, a missing read-back, an interruption or a timeout (reason)',
  ambiguous: 'the evidence could not be attributed or classified (reason); never a success',
};

export interface Transition {
  from: EvidenceState;
  input: EvidenceInput;
  to: EvidenceState;
  /** ms from the dispatch, on the record's one clock; never decreases along a record */
  t_ms: number;
  /** what the stage established, or why it failed */
  detail: Record<string, unknown>;
}

export interface EvidenceRecord {
  /** the action's identity, from its contract */
  action_id: string;
  state: EvidenceState;
  /** for failed and ambiguous: why */
  reason: string | null;
  /** every move, in order, the first from `declared` */
  transitions: readonly Transition[];
}

/** A move the table does not allow (a skipped stage, a step back, anything after a terminal state). */
export class IllegalTransitionError extends Error {
  constructor(readonly from: EvidenceState, readonly input: EvidenceInput) {
    super(`illegal evidence transition: ${input} from ${from} (allowed: ${Object.keys(transitions[from]).join(', ') || 'none, it is terminal'})`);
    this.name = 'IllegalTransitionError';
  }
}

/** A move stamped earlier than the one before it: the record keeps one clock that never goes back. */
export class ClockError extends Error {
  constructor(readonly t_ms: number, readonly previous: number) {
    super(`evidence transition at ${t_ms} ms is earlier than the previous one at ${previous} ms`);
    this.name = 'ClockError';
  }
}

export function declared(actionId: string): EvidenceRecord {
  return { action_id: actionId, state: 'declared', reason: null, transitions: [] };
}

export const isTerminal = (state: EvidenceState) => terminalStates.includes(state);

/** The next record, or a typed error; the given record is left as it was. */
export function step(record: EvidenceRecord, input: EvidenceInput, t_ms: number, detail: Record<string, unknown> = {}): EvidenceRecord {
  const to = transitions[record.state][input];
  if (to === undefined) throw new IllegalTransitionError(record.state, input);
  const previous = record.transitions.at(-1)?.t_ms;
  if (!Number.isFinite(t_ms) || (previous !== undefined && t_ms < previous)) throw new ClockError(t_ms, previous ?? Number.NaN);
  const reason = to === 'failed' || to === 'ambiguous' ? String(detail.reason ?? input) : null;
  return { ...record, state: to, reason, transitions: [...record.transitions, { from: record.state, input, to, t_ms, detail }] };
}

/** The time of the last move (the record's latency once it is terminal). */
export const lastTime = (record: EvidenceRecord): number | null => record.transitions.at(-1)?.t_ms ?? null;
