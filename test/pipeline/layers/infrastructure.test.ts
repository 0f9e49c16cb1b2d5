// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Amendment 7's stall rule, and which flag rule a protocol puts in force: pure, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultsCanBlockActions, infrastructureError } from '../../../pipeline/layers/infrastructure.ts';
import { ACTION_TIMEOUT_MS } from '../../../pipeline/layers/policies/actor.ts';
import { flagRuleInForce, SPEED_RULE_AMENDMENT } from '../../../pipeline/layers/protocol.ts';
import type { Faults } from '../../../core/layers.ts';

const none: Faults = { reveal_after_ms: 0, decoys: 0, swallow_clicks: 0, commit_delay_ms: 0, saves_required: 1 };
const message = `locator.click: Timeout ${ACTION_TIMEOUT_MS}ms exceeded.`;
const clickTimedOut = { action: 'click' as const, startedAt: 120, timeoutMs: ACTION_TIMEOUT_MS, message };

test('a click of the harness that ran out of its own 2000 ms on an unfaulted control is a stall', () => {
  const why = infrastructureError({ error: message, actionTimeout: clickTimedOut, faults: none });
  assert.match(why ?? '', /^stall: the harness's own click ran out of its 2000 ms/);
});

test('every fault of the five layers leaves a found control actionable: their timeouts are stalls too', () => {
  for (const faults of [
    { ...none, reveal_after_ms: 420 },
    { ...none, decoys: 3 },
    { ...none, swallow_clicks: 3 },
    { ...none, commit_delay_ms: 700 },
    { ...none, saves_required: 3 },
  ]) {
    assert.equal(faultsCanBlockActions(faults), false, JSON.stringify(faults));
    assert.notEqual(infrastructureError({ error: message, actionTimeout: clickTimedOut, faults }), null);
  }
});

test('a fault this rule does not know is taken to be able to block: its timeouts stay the agent\'s', () => {
  const unknown = { ...none, disable_after_ms: 50 } as Faults;
  assert.equal(faultsCanBlockActions(unknown), true);
  assert.equal(infrastructureError({ error: message, actionTimeout: clickTimedOut, faults: unknown }), null);
});

test('not a stall: no error, no harness action timed out, another bound, or the trace ended of something else', () => {
  assert.equal(infrastructureError({ error: null, actionTimeout: null, faults: none }), null, 'a success');
  assert.equal(infrastructureError({ error: 'agent exited with code 1', actionTimeout: null, faults: none }), null, "an outside agent's own failure");
  assert.equal(infrastructureError({ error: 'locator.click: Timeout 5000ms exceeded.', actionTimeout: { ...clickTimedOut, timeoutMs: 5000, message: 'locator.click: Timeout 5000ms exceeded.' }, faults: none }), null, 'not the harness bound');
  assert.equal(infrastructureError({ error: 'page.reload: net::ERR_ABORTED', actionTimeout: clickTimedOut, faults: none }), null, 'an earlier timeout the policy got past');
  assert.equal(infrastructureError({ error: 'locator.click: Target page, context or browser has been closed', actionTimeout: { ...clickTimedOut, message: 'locator.click: Target page, context or browser has been closed' }, faults: none }), null, 'not a timeout');
});

test('the speed rule is in force once amendment 7 is a prereg; amendment 5\'s rule before it', () => {
  assert.equal(flagRuleInForce(['layers', 'layers-amendment-5', 'layers-amendment-6']), 'amendment-5');
  assert.equal(flagRuleInForce(['layers', 'layers-amendment-6', SPEED_RULE_AMENDMENT]), 'speed');
});
