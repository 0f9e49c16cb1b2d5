// shares the machine: no browser, no network; pure functions on plans made from the proxy's own tables.
// The rules as the proxy reads them for one request (proxy/src/rules.ts): a transport fault counts
// only the requests it matches (an asset per URL) and fires by its table's rule on that count; a
// layer's write rule answers the write in the app's place and forwards it late (State) or never
// (Verification, until its k-th save), and lets everything else pass. Every value is read from the
// tables, not written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planFor, layerTable, transportTable, fires } from '../../proxy/src/index.ts';
import { transportStep, writeStep } from '../../proxy/src/rules.ts';
import { formSpec } from './form-app.ts';

const plan = (layer: string, severity: 0 | 1 | 2 | 3, transport?: { fault: string; severity: 1 | 2 | 3 }) =>
  planFor({ spec: formSpec, layer, severity, seed: 'rules', ...(transport ? { transport } : {}) });

test('a transport fault counts only the kind it matches, an asset per URL, and fires where its rule says', () => {
  for (const [fault, entry] of Object.entries(transportTable().faults)) {
    entry.severities.forEach((level, i) => {
      const p = plan('baseline', 0, { fault, severity: (i + 1) as 1 | 2 | 3 });
      const counts = new Map<string, number>();
      const other = entry.match === 'write' ? 'page' : 'write';
      assert.equal(transportStep(p, other, 'http://127.0.0.1/x', counts), null, `${fault}: a ${other} is not counted`);
      assert.equal(transportStep(p, null, 'http://127.0.0.1/x', counts), null);
      const firedOn = [1, 2, 3, 4].filter((n) => transportStep(p, entry.match, 'http://127.0.0.1/a.js', counts)?.n === n);
      assert.deepEqual(firedOn, [1, 2, 3, 4].filter((n) => fires(level.fire, n)), `${fault} ${i + 1}: fires as ${JSON.stringify(level.fire)}`);
      if (entry.match === 'asset') assert.equal(transportStep(p, 'asset', 'http://127.0.0.1/b.css', counts)?.n ?? 1, 1, 'another asset starts its own count');
    });
  }
  assert.equal(transportStep(plan('state', 1), 'write', 'http://127.0.0.1/save', new Map()), null, 'no transport fault, nothing fires');
});

test('State answers the write and forwards it after its hold; Verification answers it and never forwards it, until its k-th save passes; the rest passes', () => {
  const layers = layerTable().layers;
  for (const severity of [1, 2, 3] as const) {
    const hold = layers.state!.parameters.forward_after_ms!.values[severity - 1]!;
    assert.deepEqual(writeStep(plan('state', severity), true, 1), { does: 'answer', forwardAfterMs: hold });
    assert.deepEqual(writeStep(plan('state', severity), true, 5), { does: 'answer', forwardAfterMs: hold }, 'every save of State is held');
    const k = layers.verification!.parameters.saves_required!.values[severity - 1]!;
    for (let save = 1; save < k; save += 1) assert.deepEqual(writeStep(plan('verification', severity), true, save), { does: 'answer', forwardAfterMs: null });
    assert.deepEqual(writeStep(plan('verification', severity), true, k), { does: 'pass', detail: `save ${k}: from save ${k} on, the app answers` });
    assert.equal(writeStep(plan('verification', severity), false, 0).does, 'pass', 'a page load passes');
    for (const layer of ['access', 'perception', 'action']) assert.deepEqual(writeStep(plan(layer, severity), true, 1), { does: 'pass' }, `${layer} leaves the write alone`);
  }
  assert.deepEqual(writeStep(plan('baseline', 0), true, 1), { does: 'pass' });
  assert.deepEqual(writeStep(null, true, 1), { does: 'pass' }, 'no condition loaded: pass-through');
});
