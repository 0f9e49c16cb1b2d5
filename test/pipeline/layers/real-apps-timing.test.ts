// The real applications' timing-sensitive rule (pipeline/layers/scoring.ts, REAL_APPS), pure: no
// browser, no app. Version 2 adds a held write (State) that reached the app near the read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REAL_APPS, realAppTimingSensitive as timingSensitive, type TraceMoments, type WriteRecord } from '../../../pipeline/layers/scoring.ts';

const HELD_NEAR_READ_MS = REAL_APPS.heldNearReadMs;

const write = (w: Partial<WriteRecord>): WriteRecord => ({ t: 100, action: 'answered', status: 302, answered: 105, reachedApp: null, appAnswered: null, ...w });
const moments = (writes: WriteRecord[]): TraceMoments => ({ t0: 0, tEnd: 5000, writes, successShownAt: 300, loads: [200, 400] });
const boundary = { at: 5500, setBy: 'return' as const };
const readAt = 5500;

test('version 2: a held write that reached the app within HELD_NEAR_READ_MS of the read, after or before it, makes the row timing-sensitive', () => {
  for (const d of [HELD_NEAR_READ_MS, 428, -1, -HELD_NEAR_READ_MS]) {
    const m = moments([write({ reachedApp: readAt + d, appAnswered: readAt + d + 40 })]);
    assert.equal(timingSensitive(m, boundary, readAt, 2), true, `held write ${d} ms from the read`);
  }
  for (const d of [HELD_NEAR_READ_MS + 1, -(HELD_NEAR_READ_MS + 1), 2150]) {
    const m = moments([write({ reachedApp: readAt + d, appAnswered: readAt + d + 40 })]);
    assert.equal(timingSensitive(m, boundary, readAt, 2), false, `held write ${d} ms from the read`);
  }
});

test('a write that passed straight through, or a held write never forwarded, is not a held write near the read; version 1 keeps its 50 ms rule', () => {
  // a save that passed through 700 ms before the read (every baseline): its answer was waited for
  assert.equal(timingSensitive(moments([write({ action: 'pass', t: 4800, reachedApp: 4800, appAnswered: 4850 })]), boundary, readAt, 2), false);
  assert.equal(timingSensitive(moments([write({ reachedApp: null })]), boundary, readAt, 2), false);
  // the same held write 428 ms after the read: version 1's rule does not see it
  const m = moments([write({ reachedApp: readAt + 428, appAnswered: readAt + 470 })]);
  assert.equal(timingSensitive(m, boundary, readAt, 1), false);
  assert.equal(timingSensitive(m, boundary, readAt), false);
  // both versions: the read while a write was at the app
  assert.equal(timingSensitive(moments([write({ action: 'pass', reachedApp: readAt - 20, appAnswered: readAt + 10 })]), boundary, readAt, 1), true);
});
