// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// A malformed contract is a ContractError naming the field, before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateContract, ContractError, type ActionContract } from '../../verifier/src/contract.ts';

const good: ActionContract = {
  id: 'save',
  action: async () => undefined,
  request: { method: 'POST', path: '/api/save' },
  semantic: { kind: 'dom', success: '#ok', negative: ['#error'] },
  timeoutMs: 1000,
};

test('a well-formed contract passes, in every semantic kind', () => {
  validateContract(good);
  validateContract({ ...good, request: 'none' });
  validateContract({ ...good, request: { method: 'get', url: /\/api\/records\?q=/ } });
  validateContract({ ...good, semantic: { kind: 'read-back', read: async () => 1, success: (v: unknown) => v === 1 } });
  validateContract({ ...good, semantic: { kind: 'result-set', read: async () => [], matches: () => true, expect: 'empty' } });
  validateContract({ ...good, semantic: { kind: 'event', success: { source: 'app', type: 'commit' } }, reread: { read: async () => 1, holds: () => true } });
});

const bad: [string, Record<string, unknown>][] = [
  ['id', { id: '' }],
  ['action', { action: 'click' }],
  ['request', { request: 'POST /api/save' }],
  ['request.method', { request: { method: 'FETCH', path: '/x' } }],
  ['request.path', { request: { method: 'POST' } }],
  ['request.path', { request: { method: 'POST', path: 'api/save' } }],
  ['request.url', { request: { method: 'POST', url: '/api/.*/' } }],
  ['transport.success[0]', { transport: { success: [700] } }],
  ['transport.failure[0]', { transport: { failure: [[500, 400]] } }],
  ['transport.failure', { transport: { success: [[200, 299]], failure: [[200, 599]] } }],
  ['transport.networkError', { transport: { networkError: 'retry' } }],
  ['semantic', { semantic: undefined }],
  ['semantic.kind', { semantic: { kind: 'stable-page' } }],
  ['semantic.success', { semantic: { kind: 'dom' } }],
  ['semantic.negative', { semantic: { kind: 'dom', success: '#ok', negative: '#error' } }],
  ['semantic.read', { semantic: { kind: 'read-back', success: () => true } }],
  ['semantic.matches', { semantic: { kind: 'result-set', read: async () => [] } }],
  ['semantic.expect', { semantic: { kind: 'result-set', read: async () => [], matches: () => true, expect: 'some' } }],
  ['semantic.success.source', { semantic: { kind: 'event', success: { source: 'page', type: 'commit' } } }],
  ['semantic.negative[0].type', { semantic: { kind: 'event', success: { source: 'app', type: 'commit' }, negative: [{ source: 'app' }] } }],
  ['reread.holds', { reread: { read: async () => 1 } }],
  ['timeoutMs', { timeoutMs: 0 }],
  ['timeoutMs', { timeoutMs: undefined }],
  ['ambiguity', { ambiguity: 'accept' }],
  ['navigates', { navigates: 'yes' }],
  ['ui', { ui: 3 }],
];

for (const [field, change] of bad) {
  test(`a malformed ${field} is a ContractError naming it`, () => {
    assert.throws(() => validateContract({ ...good, ...change }), (e: unknown) => {
      assert.ok(e instanceof ContractError);
      assert.ok(e instanceof TypeError);
      assert.equal(e.field, field);
      assert.match(e.message, new RegExp(`^action contract: ${field.replace(/[.[\]]/g, '\\$&')}: `));
      return true;
    });
  });
}

test('a contract that is not an object names the contract itself', () => {
  assert.throws(() => validateContract(null), (e: unknown) => e instanceof ContractError && e.field === '(contract)');
});
