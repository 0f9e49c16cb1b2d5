// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// DuckDB's SQL-test style: each query runs on the small JSONL sample beside it and must give the rows
// written in <name>.expected.json, which were counted by hand from the sample. The independent
// TypeScript recount must give the same rows from the same sample.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../../core/paths.ts';
import { SqlSession } from '../../analysis/duck.ts';
import { readRows, type EvidenceRow, type LayersRow } from '../../analysis/rows.ts';
import { recount } from '../../analysis/recount.ts';
import { tables, type TableDef, type TableRow } from '../../analysis/tables.ts';

const dir = paths.queries();

function assertRows(def: TableDef, actual: TableRow[], expected: TableRow[], what: string, ordered: boolean) {
  const key = (r: TableRow) => JSON.stringify(def.keys.map((k) => r[k]));
  const a = ordered ? actual : [...actual].sort((x, y) => (key(x) < key(y) ? -1 : 1));
  const e = ordered ? expected : [...expected].sort((x, y) => (key(x) < key(y) ? -1 : 1));
  assert.deepEqual(a.map(key), e.map(key), `${what}: the rows (by key) differ`);
  e.forEach((row, i) => {
    for (const c of [...def.counts]) assert.equal(a[i]![c], row[c], `${what}, row ${key(row)}, column ${c}`);
    for (const c of def.measures) {
      const x = a[i]![c] as number | null;
      const y = row[c] as number | null;
      if (y === null || x === null) assert.equal(x, y, `${what}, row ${key(row)}, column ${c}`);
      else assert.ok(Math.abs(x - y) <= 1e-4 * Math.max(1, Math.abs(y)), `${what}, row ${key(row)}, column ${c}: ${x} is not ${y}`);
    }
  });
}

const sqlTables = tables.filter((t) => t.source === 'sql');

test('every SQL table has a query, a sample and expected rows, and every query file is a table or a loader', () => {
  for (const def of sqlTables) {
    for (const ext of ['.sql', '.sample.jsonl', '.expected.json']) assert.ok(fs.existsSync(path.join(dir, def.name + ext)), `missing ${def.name}${ext}`);
  }
  const names = new Set(sqlTables.map((t) => t.name));
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
    const name = f.replace(/\.sql$/, '');
    assert.ok(names.has(name) || name.startsWith('load_') || name === 'macros', `${f} is neither a table in analysis/tables.ts, a loader, nor the shared macros`);
  }
});

for (const def of sqlTables) {
  test(`query ${def.name} on its sample`, async () => {
    const sample = path.join(dir, `${def.name}.sample.jsonl`);
    const expected = (JSON.parse(fs.readFileSync(path.join(dir, `${def.name}.expected.json`), 'utf8')) as { rows: TableRow[] }).rows;
    assert.ok(expected.length > 0, 'an expected result with no rows proves nothing');
    // the sample is real trace/1 rows: readRows validates each against the schema
    const rows = readRows<LayersRow | EvidenceRow>([sample]);
    const session = await SqlSession.open({ layers: [sample], evidence: [sample] });
    try {
      assertRows(def, await session.query(def.name), expected, `SQL ${def.name}`, true);
    } finally {
      session.close();
    }
    const counted = recount({
      layers: rows.filter((l): l is typeof l & { row: LayersRow } => l.row.study === 'layers'),
      evidence: rows.filter((l): l is typeof l & { row: EvidenceRow } => l.row.study === 'evidence'),
    });
    assertRows(def, counted[def.name] ?? [], expected, `recount ${def.name}`, false);
  });
}

test('the loaders read an empty study as an empty table', async () => {
  const session = await SqlSession.open({ layers: [], evidence: [] });
  try {
    for (const def of sqlTables) assert.deepEqual(await session.query(def.name), [], def.name);
  } finally {
    session.close();
  }
});

test('the loaders declare their column types: a string where a count belongs is an error, not a guess', async () => {
  const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'rstack-q-'));
  const file = path.join(tmp, 'bad.jsonl');
  const good = fs.readFileSync(path.join(dir, 'layers_overall.sample.jsonl'), 'utf8').split('\n')[0]!;
  fs.writeFileSync(file, good.replace('"actions":2', '"actions":"two"') + '\n');
  await assert.rejects(SqlSession.open({ layers: [file], evidence: [] }), /could not load/);
  fs.rmSync(tmp, { recursive: true, force: true });
});
