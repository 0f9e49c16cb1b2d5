// Every contract is written once, in schemas/: the generated types and the SQL that loads the raw
// rows must say what the schema says. A schema changed without `make contracts`, or a column added
// to schemas/trace.schema.json and not to analysis/queries/load_*.sql (or the other way), fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { paths, codeRoot } from '../../core/paths.ts';
import { generateContracts } from '../../pipeline/contracts.ts';

test('core/contracts.ts is what schemas/ generate (make contracts)', async () => {
  assert.equal(fs.readFileSync(path.join(codeRoot, 'core', 'contracts.ts'), 'utf8'), await generateContracts());
});

type Node = { type?: string | string[]; enum?: unknown[]; const?: unknown; properties?: Record<string, Node>; $ref?: string; additionalProperties?: unknown };
const trace = JSON.parse(fs.readFileSync(path.join(paths.schemas(), 'trace.schema.json'), 'utf8')) as { $defs: Record<string, Node> };

/** The DuckDB type a schema property is loaded as. */
function duckType(node: Node): string {
  const types = [node.type ?? (node.enum || node.const !== undefined ? 'string' : undefined)].flat().filter((t) => t !== 'null');
  const enumTypes = new Set((node.enum ?? []).map((v) => typeof v));
  const t = types[0] ?? (enumTypes.has('string') ? 'string' : undefined);
  if (t === 'string') return 'VARCHAR';
  if (t === 'integer') return 'INTEGER';
  if (t === 'number') return 'DOUBLE';
  if (t === 'boolean') return 'BOOLEAN';
  if (t === 'array') return 'JSON';
  if (t === 'object' && node.properties && !node.additionalProperties) {
    return `STRUCT(${Object.entries(node.properties).map(([k, v]) => `${k} ${duckType(v)}`).join(', ')})`;
  }
  if (t === 'object' && node.additionalProperties && typeof node.additionalProperties === 'object') {
    const ref = (node.additionalProperties as Node).$ref?.replace('#/$defs/', '');
    return `MAP(VARCHAR, ${duckType(ref ? trace.$defs[ref]! : (node.additionalProperties as Node))})`;
  }
  return 'JSON';
}

function sqlColumns(file: string): Record<string, string> {
  const sql = fs.readFileSync(path.join(paths.queries(), file), 'utf8');
  const block = /columns = \{([\s\S]*?)\n\s*\}/.exec(sql)![1]!;
  return Object.fromEntries([...block.matchAll(/^\s*(\w+): '([^']+)'/gm)].map((m) => [m[1]!, m[2]!]));
}

for (const study of ['layers', 'evidence'] as const) {
  test(`analysis/queries/load_${study}.sql declares exactly the columns of a ${study} row, with the schema's types`, () => {
    const props = { ...trace.$defs.header!.properties!, ...trace.$defs[study]!.properties! };
    const expected = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, duckType(v)]));
    const declared = sqlColumns(`load_${study}.sql`);
    assert.deepEqual(Object.keys(declared).sort(), Object.keys(expected).sort(), 'the column names');
    for (const [column, type] of Object.entries(expected)) {
      // the decimals of DOUBLE hold an integer; a struct of named fields may be read as JSON
      const ok = declared[column] === type || (type === 'INTEGER' && declared[column] === 'DOUBLE') || (type.startsWith('STRUCT') && declared[column] === 'JSON');
      assert.ok(ok, `${column}: the schema says ${type}, load_${study}.sql declares ${declared[column]}`);
    }
  });
}
