import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gateExit, type MatrixResult } from '../../../pipeline/evidence/matrix.ts';
import { setQuiet } from '../../../core/log.ts';

const result = (failed: string[]): MatrixResult => ({
  file: 'x.jsonl', rows: [], tasks: [],
  gates: [{ id: 'background-not-correlated', description: 'd', checked: 32, failed }],
  gatesPassed: failed.length === 0,
});

test('a smoke run must pass every gate; a registered run reports a failed gate and stays registered', () => {
  setQuiet(true);
  assert.equal(gateExit(result([]), true), 0);
  assert.equal(gateExit(result(['ev-background-d050-r04']), true), 1, 'a smoke with a failed gate is not ready for registration');
  assert.equal(gateExit(result(['ev-background-d050-r04']), false), 0, 'a registered run is reported, not thrown away');
  assert.equal(gateExit(result([]), false), 0);
});
