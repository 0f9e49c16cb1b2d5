// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The evidence record's state machine, transition by transition: every (state, input) pair is
// either the table's one legal move or an IllegalTransitionError, and the record's clock never goes back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  declared, evidenceInputs, evidenceStates, step, transitions, terminalStates, IllegalTransitionError, ClockError,
  type EvidenceInput, type EvidenceRecord, type EvidenceState,
} from '../../verifier/src/machine.ts';

// the path each state is reached by, from declared, at t = 0, 1, 2, …
const pathTo: Record<EvidenceState, EvidenceInput[]> = {
  declared: [],
  dispatched: ['dispatch'],
  'ui-observed': ['dispatch', 'observe-ui'],
  correlated: ['dispatch', 'observe-ui', 'correlate'],
  'transport-resolved': ['dispatch', 'observe-ui', 'correlate', 'resolve-transport'],
  'semantic-checked': ['dispatch', 'observe-ui', 'correlate', 'resolve-transport', 'check-semantics'],
  're-read': ['dispatch', 'observe-ui', 'correlate', 'resolve-transport', 'check-semantics', 're-read'],
  closed: ['dispatch', 'observe-ui', 'correlate', 'resolve-transport', 'check-semantics', 're-read', 'close'],
  failed: ['dispatch', 'fail'],
  ambiguous: ['dispatch', 'observe-ui', 'ambiguity'],
};
const reach = (state: EvidenceState): EvidenceRecord => pathTo[state].reduce((r, input, i) => step(r, input, i, { reason: 'test' }), declared('a'));

// the table as the design states it, written out independently of transitions
const legal: Record<EvidenceState, Partial<Record<EvidenceInput, EvidenceState>>> = {
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

test('the transition table is exactly the designed one', () => {
  assert.deepEqual(transitions, legal);
});

for (const state of evidenceStates) {
  for (const input of evidenceInputs) {
    const to = legal[state][input];
    test(`${state} --${input}--> ${to ?? 'illegal'}`, () => {
      const before = reach(state);
      assert.equal(before.state, state);
      const t = before.transitions.length;
      if (to === undefined) {
        assert.throws(() => step(before, input, t), (e: unknown) => e instanceof IllegalTransitionError && e.from === state && e.input === input);
        assert.equal(before.state, state, 'an illegal move leaves the record as it was');
      } else {
        const after = step(before, input, t, { reason: 'because' });
        assert.equal(after.state, to);
        assert.equal(after.transitions.length, t + 1);
        assert.deepEqual(after.transitions.at(-1), { from: state, input, to, t_ms: t, detail: { reason: 'because' } });
        assert.equal(after.reason, to === 'failed' || to === 'ambiguous' ? 'because' : null);
        assert.equal(before.transitions.length, t, 'the given record is not changed');
      }
    });
  }
}

test('terminal states accept nothing; only close reaches success, and only from re-read', () => {
  for (const s of terminalStates) assert.deepEqual(transitions[s], {});
  const intoClosed = evidenceStates.flatMap((s) => Object.entries(transitions[s]).filter(([, to]) => to === 'closed').map(([input]) => `${s} ${input}`));
  assert.deepEqual(intoClosed, ['re-read close']);
});

test('no move goes back along the pipeline (monotonic)', () => {
  const order = evidenceStates.slice(0, 8);
  for (const s of order) {
    for (const to of Object.values(transitions[s])) {
      if (order.includes(to!)) assert.equal(order.indexOf(to!), order.indexOf(s) + 1, `${s} → ${to}`);
    }
  }
});

test('a move stamped before the previous one is refused: one clock that never goes back', () => {
  const r = step(step(declared('a'), 'dispatch', 0), 'observe-ui', 5);
  assert.throws(() => step(r, 'correlate', 4), ClockError);
  assert.throws(() => step(r, 'correlate', Number.NaN), ClockError);
  assert.equal(step(r, 'correlate', 5).state, 'correlated');
});
