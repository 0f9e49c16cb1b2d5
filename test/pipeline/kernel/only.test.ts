// --only as a list of ids: an alternative that matches no unit is named (runArm refuses the run),
// however the list is written; a pattern that is not a list is left to match what it matches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unmatchedAlternatives } from '../../../pipeline/kernel/run.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';

const ids = generateLayersTasks().map((t) => t.condition_id);

test('a list of ids with unknown ones: each unknown one named, the known ones not', () => {
  assert.deepEqual(unmatchedAlternatives('^(cards-baseline-01|cards-nosuch-01|modal-state-02)$', ids), ['cards-nosuch-01']);
  assert.deepEqual(unmatchedAlternatives('cards-baseline-01|typo-1|typo-2', ids), ['typo-1', 'typo-2']);
  assert.deepEqual(unmatchedAlternatives('^(?:profile-access-03|profile-acess-03)$', ids), ['profile-acess-03']);
  assert.deepEqual(unmatchedAlternatives('^(cards-baseline-01)|(nope)$', ids), ['(nope)']);
});

test('every alternative known, or no list at all: nothing named', () => {
  assert.deepEqual(unmatchedAlternatives('^(cards-baseline-01|modal-state-02)$', ids), []);
  assert.deepEqual(unmatchedAlternatives('^cards-(baseline|nosuch)-01$', ids), [], 'a group inside an id is a pattern, not a list');
  assert.deepEqual(unmatchedAlternatives('^cards-baseline-0[1|2]$', ids), [], 'a | in a class is a character');
  assert.deepEqual(unmatchedAlternatives('nosuch', ids), [], 'one pattern that matches nothing is the run\'s own "no condition matches"');
});
