// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gateExit, matrixVerdict, type MatrixResult } from '../../../pipeline/evidence/matrix.ts';
import { setQuiet } from '../../../core/log.ts';
import { paths } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { EvidenceRow } from '../../../analysis/rows.ts';

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

const registeredRows = (arm: 'controlled' | 'arm-a') => {
  const dir = paths.rawArm('evidence', arm);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.jsonl'))!;
  return readJsonl<EvidenceRow>(path.join(dir, file), { schema: 'trace' });
};

test("the run's exit on its finished rows, on the registered runs: Arm A passes every gate; the controlled run's one failed gate fails a smoke run and not a registered one", () => {
  const armA = registeredRows('arm-a');
  assert.equal(armA.length, 320);
  assert.deepEqual([matrixVerdict(armA, true).exit, matrixVerdict(armA, false).exit], [0, 0]);
  // the record's own deviation: one background row of the registered controlled run failed its gate (amendments 1)
  const controlled = matrixVerdict(registeredRows('controlled'), true);
  assert.deepEqual(controlled.gates.filter((g) => g.failed.length).map((g) => [g.id, g.failed.length]), [['background-not-correlated', 1]]);
  assert.equal(controlled.exit, 1, 'as a smoke run, those rows exit 1 (the exit the run log records: test/pipeline/kernel/run.test.ts)');
  assert.equal(matrixVerdict(registeredRows('controlled'), false).exit, 0, 'a registered run reports it and exits 0 (amendments 1)');
  // one row whose page clock was mapped no tighter than 50 ms, as under a stalled machine
  const loose = armA.map((r, i) => (i !== 7 ? r : { ...r, events: r.events.map((e) => (e.type === 'clock-sync' ? { ...e, detail: { ...e.detail, page_uncertainty_ms: 50 } } : e)) }));
  const smoke = matrixVerdict(loose, true);
  assert.deepEqual(smoke.gates.find((g) => g.id === 'clock')!.failed, [armA[7]!.condition_id]);
  assert.equal(smoke.exit, 1);
});
