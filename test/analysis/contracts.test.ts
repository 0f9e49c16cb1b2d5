// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Every contract is written once, in schemas/: the generated types must be what the schemas generate,
// and the SQL that loads the raw rows takes its column list from the schema, never from a hand copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { paths, codeRoot } from '../../core/paths.ts';
import { generateContracts, generateProxyContracts } from '../../pipeline/steps/contracts.ts';
import { traceColumns } from '../../analysis/columns.ts';

test('core/contracts.ts is what schemas/ generate (make contracts)', async () => {
  assert.equal(fs.readFileSync(path.join(codeRoot, 'core', 'contracts.ts'), 'utf8'), await generateContracts());
});

test('proxy/src/contracts.ts is what proxy/schemas/ generate, and core/contracts.ts imports those types rather than writing them again', async () => {
  assert.equal(fs.readFileSync(path.join(codeRoot, 'proxy', 'src', 'contracts.ts'), 'utf8'), await generateProxyContracts());
  const core = fs.readFileSync(path.join(codeRoot, 'core', 'contracts.ts'), 'utf8');
  assert.match(core, /^import type \{ FaultSpec, [^}]*ProxyEvent \} from '\.\.\/proxy\/src\/contracts\.ts';$/m);
  assert.doesNotMatch(core, /^export (type|interface) (FaultSpec|FaultLayers|FaultTransport|ProxyEvent)\b/m);
});

for (const study of ['layers', 'evidence'] as const) {
  test(`analysis/queries/load_trace.sql reads the ${study} columns schemas/trace.schema.json declares, with their types`, () => {
    const sql = fs.readFileSync(path.join(paths.queries(), 'load_trace.sql'), 'utf8');
    assert.match(sql, /columns = \{\{trace columns\}\}/, 'the column list is not written by hand');
    const columns = traceColumns(study);
    const trace = JSON.parse(fs.readFileSync(path.join(paths.schemas(), 'trace.schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(columns).sort(), Object.keys({ ...trace.$defs.header.properties, ...trace.$defs[study].properties }).sort());
    assert.equal(columns.browser, 'STRUCT(name VARCHAR, version VARCHAR)');
    assert.equal(columns.elapsed_ms, 'DOUBLE');
    if (study === 'layers') assert.deepEqual([columns.severity, columns.vts, columns.persisted], ['INTEGER', 'BOOLEAN', 'JSON']);
    else assert.deepEqual([columns.rep, columns.events, columns.verdicts], ['INTEGER', 'JSON', 'MAP(VARCHAR, STRUCT(accept BOOLEAN, latency_ms DOUBLE))']);
  });
}
