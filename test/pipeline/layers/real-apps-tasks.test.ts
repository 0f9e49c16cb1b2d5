// shares the machine: reads the family files, no server and no browser
// The real-applications arm's conditions and the checks its families pass before they are frozen
// (issue 47): version 1's frozen file is what a fresh generation gives; version 2 has at least 24
// conditions in every (application, layer), each marked with its version; the static family checks
// pass on the shipped families and name the file and field of each planted mistake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import { isValid } from '../../../core/validate.ts';
import { layers } from '../../../core/layers.ts';
import { generateRealAppsTasks, MIN_PER_CELL, realAppsSeed } from '../../../pipeline/layers/real-apps/generate.ts';
import { realAppsTaskFile } from '../../../pipeline/layers/real-apps/arm.ts';
import { readFamilies } from '../../../pipeline/layers/real-apps/families.ts';
import { shippedFamilies, staticFamilyProblems, type FamilyEntry } from '../../../pipeline/layers/real-apps/check-families.ts';

test('version 1: the frozen conditions are a fresh generation of the families version 1 knows, and carry no version', () => {
  const frozen = readJsonl<LayersRealAppsTask>(realAppsTaskFile(1), { schema: 'layers-real-apps-task' });
  assert.deepEqual(generateRealAppsTasks(realAppsSeed(1), undefined, 1), frozen);
  assert.ok(frozen.every((t) => t.version === undefined));
  // a family introduced by version 2 is in none of them
  const later = readFamilies().filter((f) => (f.data.introduced ?? 1) > 1).map((f) => f.id);
  assert.ok(frozen.every((t) => !later.includes(t.family)));
});

test(`version 2: at least ${MIN_PER_CELL} conditions in every (application, layer), valid, distinct, seeded, each marked version 2`, () => {
  const tasks = generateRealAppsTasks(realAppsSeed(2), undefined, 2);
  assert.deepEqual(generateRealAppsTasks(realAppsSeed(2), undefined, 2), tasks, 'the same seed, the same conditions');
  assert.notDeepEqual(generateRealAppsTasks('another seed', undefined, 2).map((t) => t.variant), tasks.map((t) => t.variant));
  assert.equal(new Set(tasks.map((t) => t.condition_id)).size, tasks.length);
  for (const task of tasks) {
    assert.ok(isValid('layers-real-apps-task', task), task.condition_id);
    assert.equal(task.version, 2);
  }
  for (const app of ['wordpress', 'mediawiki'] as const) {
    for (const layer of layers) {
      const n = tasks.filter((t) => t.app === app && t.layer === layer && t.fault_source !== 'app').length;
      assert.ok(n >= MIN_PER_CELL, `${app} ${layer}: ${n} conditions`);
    }
  }
  // the application's own case stays what it is: declared, not injected
  const own = tasks.filter((t) => t.fault_source === 'app');
  assert.ok(own.length > 0 && own.every((t) => t.family === 'wordpress-admin-email-pending' && t.layer === 'verification' && t.severity === 0));
});

test('the static family checks: the shipped families pass; each planted mistake is named by its file and field', () => {
  const shipped = shippedFamilies();
  assert.deepEqual(staticFamilyProblems(undefined, shipped), []);
  const title = shipped.find((e) => e.file === 'fixtures/wordpress/families/wordpress-general-title.json')!;
  const broken = (change: (f: Record<string, any>) => void): FamilyEntry => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const family = structuredClone(title.family) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    change(family);
    return { ...title, family: family as never };
  };
  const found = (entry: FamilyEntry) => staticFamilyProblems(undefined, [entry]).map((p) => `${p.file}: ${p.field}`);
  const file = title.file;
  assert.deepEqual(found(broken((f) => { f.postcondition.sql = 'queries/optoin.sql'; })), [`${file}: postcondition.sql`]);
  assert.deepEqual(found(broken((f) => { f.postcondition.query = 'optoin'; })), [`${file}: postcondition.query`]);
  assert.deepEqual(found(broken((f) => { f.changes = { query: 'countChanges', args: [] }; })), [`${file}: changes.query`]);
  assert.deepEqual(found(broken((f) => { f.variants[0].expected = f.variants[0].seeded; })), [`${file}: variants.0 (${(title.family as { variants: { id: string }[] }).variants[0]!.id}).expected`]);
  assert.deepEqual(found(broken((f) => { f.spec.pages = '^/wp-admin/(options'; })).length, (title.family as { variants: unknown[] }).variants.length, 'a regex that does not compile, for every variant');
  assert.deepEqual(found({ ...title, family: new Error('fixtures/wordpress/families/x.json: spec.target: required') }), [`${file}: (file)`]);
  // the files as they are on disk are read the same way
  assert.ok(fs.existsSync(file));
});
