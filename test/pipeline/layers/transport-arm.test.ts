// shares the machine: no browser; the frozen task files and pure functions, nothing that depends on speed.
// The transport arm's units and conditions: the frozen files are what the generators give, every
// faulted condition's control is a condition of the arm, and the units are each small-app condition ×
// the six small-app policies and each real-application condition × the three reference policies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateTransportTasks, transportSeed } from '../../../pipeline/layers/transport/generate.ts';
import { generateSmallTransportTasks } from '../../../pipeline/layers/transport/small-apps.ts';
import { readSmallTransportTasks, readTransportTasks, smallAppPolicies, transportTaskFile, transportUnits, transportUnitKey, transportSummary } from '../../../pipeline/layers/transport/arm.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { realAppPolicies } from '../../../pipeline/layers/real-apps/policies.ts';

test('the frozen conditions are the generators\' output, and every faulted condition names a control of the arm', () => {
  const real = readTransportTasks();
  const small = readSmallTransportTasks();
  assert.deepEqual(real, generateTransportTasks());
  assert.deepEqual(small, generateSmallTransportTasks());
  const ids = new Set([...real, ...small].map((t) => t.condition_id));
  assert.equal(ids.size, real.length + small.length, 'condition ids are unique');
  for (const t of [...real, ...small]) {
    if (t.control) {
      assert.ok(ids.has(t.control), `${t.condition_id}: its control ${t.control} is a condition`);
      const c = [...real, ...small].find((x) => x.condition_id === t.control)!;
      assert.equal(c.transport, undefined, `${t.control}: a control has no transport fault`);
      assert.deepEqual([c.layer, c.severity], [t.layer, t.severity], `${t.condition_id}: its control has its layer`);
    }
    assert.ok(t.transport || t.also || !t.control, `${t.condition_id}: only a faulted condition names a control`);
  }
  assert.ok(small.every((t) => t.transport?.fault !== 'asset-error'), 'no asset fault on the small apps');
});

test('version 2: its frozen conditions are the generator\'s with the version\'s seed, each marked version 2, the real-apps arm\'s version-2 families among them; its units keep the version; a file of another version is refused', (t) => {
  const v2 = readTransportTasks(transportTaskFile(2), 2);
  assert.deepEqual(v2, generateTransportTasks(transportSeed(2), undefined, 2));
  assert.ok(v2.every((c) => c.version === 2 && c.seed === transportSeed(2)));
  assert.deepEqual(new Set(v2.map((c) => c.family)), new Set([...generateTransportTasks().map((c) => c.family), 'mediawiki-edit-section', 'mediawiki-watch-page']));
  const ids = new Set(v2.map((c) => c.condition_id));
  for (const c of v2) if (c.control) assert.ok(ids.has(c.control), `${c.condition_id}: its control ${c.control} is a condition`);
  const units = transportUnits(v2, readSmallTransportTasks(), 2);
  assert.equal(units.length, readSmallTransportTasks().length * 6 + v2.length * realAppPolicies.length);
  assert.ok(units.every((u) => u.kind === 'real' ? u.task.version === 2 : u.version === 2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-transport-v-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.copyFileSync(transportTaskFile(1), path.join(dir, 'v1.jsonl'));
  assert.throws(() => readTransportTasks(path.join(dir, 'v1.jsonl'), 2), /is a condition of version 1 of the arm, not 2/);
});

test('the units: small-app conditions × 6 policies, real-application conditions × 3, each key once', () => {
  const units = transportUnits();
  assert.deepEqual(smallAppPolicies, ['selector-only', 'semantic-recovery', 'verification-aware', 'verified-selector-only', 'verified-semantic-recovery', 'verified-checked-retry']);
  assert.equal(units.length, readSmallTransportTasks().length * 6 + readTransportTasks().length * realAppPolicies.length);
  assert.equal(new Set(units.map((u) => transportUnitKey({ condition_id: u.task.condition_id, policy: u.policy }))).size, units.length);
  assert.ok(units.every((u) => (u.kind === 'real') === ('app' in u.task)));
});

test('the end screen names each condition as the tables do, a control as the condition without its fault', () => {
  const base = { apparent_success: true, vts: true, false_completion: false, false_abandonment: false, store_writes: 1 };
  const screen = transportSummary([
    { ...base, condition_id: 'cards-transport-control', policy: 'selector-only', layer: 'baseline' },
    { ...base, condition_id: 'cards-transport-lost-response-1', policy: 'selector-only', layer: 'baseline', transport: { fault: 'lost-response', severity: 1 }, store_writes: 2 },
    { ...base, condition_id: 'x-compound-access-state', policy: 'selector-only', layer: 'access', also: { layer: 'state', severity: 1 }, vts: false, false_completion: true },
  ] as never);
  const lines = screen.split('\n').slice(1).map((l) => l.replace(/\s+/g, ' ').trim());
  assert.deepEqual(lines, [
    'access+state selector-only 1 1 0 1 0 0',
    'control baseline selector-only 1 1 1 0 0 0',
    'lost-response 1 selector-only 1 1 1 0 0 1',
  ]);
});
