// @rstackbench/verifier: declare what success means for an action before it runs, then close the
// action only on evidence of it. The public surface, re-exported from one role per file.
export { attach, type Verifier, type VerifyResult } from './verify.ts';
export { replay } from './replay.ts';
export { verifyWithRetry, storeRead, type RetryOptions, type RetryResult, type StoreCheck } from './retry.ts';
export {
  validateContract, ContractError, transportOf, hopMatcher, describeFamily, inSet,
  type ActionContract, type ContractTerms, type RequestFamily, type StatusSet, type TransportSemantics,
  type SemanticPredicate, type ReRead, type ReadContext, type EventPattern,
} from './contract.ts';
export {
  evidenceStates, evidenceInputs, terminalStates, transitions, stateMeanings, step, declared, isTerminal, lastTime,
  IllegalTransitionError, ClockError,
  type EvidenceState, type EvidenceInput, type EvidenceRecord, type Transition,
} from './machine.ts';
export { correlate, chainsOf, candidatesOf, windowOf, horizonOf, transportSucceeded, targetMatcher, type Chain, type Hop, type Terminal, type Correlation } from './correlate.ts';
export { policies, policyIds, verdictsOf, controlledPolicies, type Policy, type PolicyId, type Verdict } from './policies.ts';
export { byTime, pathOf, targetOf, roundMs, type EvidenceEvent, type TimelineEvent, type Timeline, type TargetContract } from './events.ts';
