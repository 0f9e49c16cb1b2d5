// shares the machine: no browser and no server; pure functions of a spec, the layer table and a seed.
// The fault spec is refused before anything starts, naming the field; the layer table is data the
// proxy checks; a condition's plan comes from the table and its seed alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileSpec, planFor, readLayerTable, layerTable } from '../../proxy/src/index.ts';
import { parseTemplate, renderTemplate, renderValue } from '../../proxy/src/template.ts';
import { ValidationError } from '../../proxy/src/index.ts';
import { formSpec } from './form-app.ts';

const spec = () => structuredClone(formSpec) as unknown as Record<string, any>;

/** Asserts that compileSpec refuses the value, naming `field`. */
function refused(value: unknown, field: string, detail?: RegExp): void {
  assert.throws(() => compileSpec(value, 'spec.json'), (e: unknown) => {
    assert.ok(e instanceof ValidationError, `a ValidationError, not ${String(e)}`);
    assert.equal(e.field, field, e.message);
    assert.equal(e.exitCode, 2);
    if (detail) assert.match(e.message, detail);
    return true;
  });
}

test('a well-formed spec compiles: its regexes and templates', () => {
  const compiled = compileSpec(spec());
  assert.ok(compiled.pages.test('/form?x=1'));
  assert.ok(compiled.write.path.test('/save'));
  assert.deepEqual(compiled.write.form.map(([name]) => name), ['kind']);
  assert.ok(compiled.templates.has('success.location'));
});

test('a malformed spec is refused, naming the field', () => {
  refused({ ...spec(), schema: 'fault-spec/2' }, 'schema');
  refused({ ...spec(), family: 'Has Spaces' }, 'family');
  const noName = spec(); delete noName.target.name;
  refused(noName, 'target.name', /is missing/);
  refused({ ...spec(), pages: '^/form(' }, 'pages', /not a valid regular expression/);
  refused({ ...spec(), write: { ...spec().write, path: '[' } }, 'write.path', /not a valid regular expression/);
  refused({ ...spec(), write: { ...spec().write, form: { kind: '(' } } }, 'write.form.kind');
  refused({ ...spec(), write: { ...spec().write, method: 'BREW' } }, 'write.method', /must be one of/);
  refused({ ...spec(), write: { ...spec().write, json: { a: 'x' } } }, 'write.json', /beside write.form/);
  refused({ ...spec(), success: { kind: 'redirect', status: 302 } }, 'success.location', /is missing/);
  refused({ ...spec(), success: { kind: 'teleport' } }, 'success.kind', /must be one of/);
  refused({ ...spec(), success: { kind: 'redirect', status: 200, location: '/' } }, 'success.status');
  refused({ ...spec(), success: { kind: 'reply', status: 200, body: 'ok', extra: 1 } }, 'success.extra', /is not allowed/);
  refused({ ...spec(), success: { kind: 'redirect', status: 302, location: '/?t={{form.title' } }, 'success.location', /unclosed/);
  refused({ ...spec(), success: { kind: 'redirect', status: 302, location: '/{{cookie.x}}' } }, 'success.location', /unknown placeholder/);
  refused({ ...spec(), success: { kind: 'json-echo', overlay: { title: '{{json.title|base64}}' } } }, 'success.overlay.title', /unknown placeholder/);
  refused({ ...spec(), success: { kind: 'redirect', status: 302, location: '/', cookies: ['a={{nope}}'] } }, 'success.cookies.0');
});

test('templates: the write\'s form, query, JSON and origin, with |url and |html; one placeholder alone keeps its JSON type', () => {
  const input = { form: { title: 'A & B' }, query: new URLSearchParams('page=Main Page'), json: { post: { id: 7, tags: ['x'] } }, origin: 'http://127.0.0.1:8650' };
  assert.equal(renderTemplate(parseTemplate('{{origin}}/?t={{form.title|url}}&p={{query.page}}'), input), 'http://127.0.0.1:8650/?t=A%20%26%20B&p=Main Page');
  assert.equal(renderTemplate(parseTemplate('<b>{{form.title|html}}</b> {{form.missing}}.'), input), '<b>A &amp; B</b> .');
  assert.equal(renderValue(parseTemplate('{{json.post.id}}'), input), 7);
  assert.deepEqual(renderValue(parseTemplate('{{json.post.tags}}'), input), ['x']);
  assert.equal(renderValue(parseTemplate('#{{json.post.id}}'), input), '#7');
});

test('the layer tables are valid, every layer is in them, they differ only in Verification, and a rule naming a parameter the layer lacks is refused', () => {
  const table = layerTable();
  const v1 = layerTable('v1');
  for (const layer of ['baseline', 'access', 'perception', 'action', 'state'] as const) assert.deepEqual(v1.layers[layer], table.layers[layer], `${layer}: the same in both tables`);
  assert.notDeepEqual(v1.layers.verification, table.layers.verification);
  assert.deepEqual(Object.keys(table.layers).sort(), ['access', 'action', 'baseline', 'perception', 'state', 'verification']);
  for (const [layer, entry] of Object.entries(table.layers)) {
    for (const [name, p] of Object.entries(entry.parameters)) assert.ok(p.why.length > 20, `${layer}.${name} says why its values`);
  }
  const broken = structuredClone(table);
  broken.layers.state!.rules = [{ match: 'write', answer: 'success', forward_after_ms: 'delay_ms' }];
  const brokenSave = structuredClone(table);
  brokenSave.layers.verification!.rules = [{ match: 'write', answer: 'success', forward_after_ms: null, pass_from_save: 'saves' }];
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-layers-')), 'layers.json');
  fs.writeFileSync(file, JSON.stringify(broken));
  try {
    assert.throws(() => readLayerTable(file), (e: ValidationError) => e.field === 'layers.state.rules.0.forward_after_ms' && /delay_ms/.test(e.message));
    fs.writeFileSync(file, JSON.stringify(brokenSave));
    assert.throws(() => readLayerTable(file), (e: ValidationError) => e.field === 'layers.verification.rules.0.pass_from_save' && /saves/.test(e.message));
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

test('a plan comes from the table: each layer\'s rules at each severity', () => {
  const table = layerTable();
  const at = (layer: string, severity: 0 | 1 | 2 | 3) => planFor({ spec: formSpec as never, layer: layer as never, severity, seed: 'seed-a' });
  assert.deepEqual([at('baseline', 0).page, at('baseline', 0).write], [null, null]);
  for (const severity of [1, 2, 3] as const) {
    const i = severity - 1;
    assert.equal(at('access', severity).page!.hideMs, table.layers.access!.parameters.reveal_after_ms!.values[i]);
    assert.equal(at('perception', severity).page!.decoys, table.layers.perception!.parameters.decoys!.values[i]);
    assert.equal(at('action', severity).page!.swallow, table.layers.action!.parameters.swallowed_activations!.values[i]);
    assert.deepEqual(at('state', severity).write, { forwardAfterMs: table.layers.state!.parameters.forward_after_ms!.values[i], passFromSave: null });
    // the seed's Verification: never forwarded, but the saves_required-th save (two or three in all) passes to the app
    assert.deepEqual(at('verification', severity).write, { forwardAfterMs: null, passFromSave: [2, 3, 3][i] });
    assert.equal(table.layers.verification!.parameters.saves_required!.values[i], [2, 3, 3][i]);
    // the registered version 1 arms' table: Verification never forwards, at any severity
    assert.deepEqual(planFor({ spec: formSpec as never, layer: 'verification', severity, seed: 'seed-a' }, layerTable('v1')).write, { forwardAfterMs: null, passFromSave: null });
    assert.equal(at('state', severity).page, null);
  }
  assert.throws(() => at('baseline', 1), (e: ValidationError) => e.field === 'severity');
  assert.throws(() => at('state', 0), (e: ValidationError) => e.field === 'severity');
  assert.throws(() => at('sideways', 1), (e: ValidationError) => e.field === 'layer');
  assert.throws(() => planFor({ spec: formSpec as never, layer: 'state', severity: 1, seed: '' }), (e: ValidationError) => e.field === 'seed');
});

test('where the decoys stand is drawn from the seed alone: the same seed, the same place; the seeds cover every place', () => {
  const place = (seed: string) => planFor({ spec: formSpec as never, layer: 'perception', severity: 3, seed }).page!.decoysBefore;
  const seeds = Array.from({ length: 40 }, (_, i) => `condition-${i}`);
  assert.deepEqual(seeds.map(place), seeds.map(place), 'replayed exactly');
  assert.deepEqual([...new Set(seeds.map(place))].sort(), [0, 1, 2, 3], 'three decoys: none to all three before the target, each drawn by some seed');
});
