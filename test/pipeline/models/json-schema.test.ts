// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The JSON-Schema-to-grammar translation of the model server, on the pilot's real plan schema and on
// schemas it must refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { SchemaNotSupported, toGrammarSchema } from '../../../pipeline/models/json-schema.ts';

test('the plan schema: anyOf becomes oneOf, annotations go, the bounds the grammar cannot hold are named', () => {
  const plan = JSON.parse(fs.readFileSync(path.join(codeRoot, 'schemas/plan.schema.json'), 'utf8'));
  const { schema, relaxed } = toGrammarSchema(plan);
  const defs = schema.$defs as Record<string, Record<string, unknown>>;
  assert.equal(schema.$schema, undefined);
  assert.equal(schema.title, undefined);
  assert.ok(Array.isArray(defs.step!.oneOf) && (defs.step!.oneOf as unknown[]).length === 9);
  assert.equal(defs.step!.anyOf, undefined);
  assert.deepEqual((schema.properties as Record<string, Record<string, unknown>>).steps, { type: 'array', minItems: 1, maxItems: 40, items: { $ref: '#/$defs/step' } });
  assert.deepEqual(relaxed.sort(), [
    '/$defs/maxRetries/maximum', '/$defs/maxRetries/minimum', '/$defs/navigate/properties/path/pattern', '/$defs/retryFrom/maximum', '/$defs/retryFrom/minimum',
    '/$defs/timeout/maximum', '/$defs/timeout/minimum', '/$defs/wait/properties/ms/maximum', '/$defs/wait/properties/ms/minimum',
  ]);
  assert.equal(JSON.stringify(schema).includes('"pattern"'), false);
});

test('keywords the grammar cannot express are refused with their place, never ignored', () => {
  for (const [schema, at] of [
    [{ allOf: [{ type: 'string' }] }, '/allOf'],
    [{ type: 'object', properties: { a: { not: { type: 'null' } } } }, '/properties/a/not'],
    [{ type: 'object', patternProperties: { '^x': { type: 'string' } } }, '/patternProperties'],
    [{ $ref: 'other.schema.json' }, '/$ref'],
  ] as const) {
    assert.throws(() => toGrammarSchema(schema), (e: Error) => e instanceof SchemaNotSupported && e.message.startsWith(at), JSON.stringify(schema));
  }
  assert.deepEqual(toGrammarSchema({ type: 'string', format: 'date-time' }), { schema: { type: 'string', format: 'date-time' }, relaxed: [] });
  assert.deepEqual(toGrammarSchema({ type: 'string', format: 'uri' }).relaxed, ['/format']);
});
