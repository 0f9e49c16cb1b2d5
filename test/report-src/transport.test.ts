// shares the machine: no browser; pure functions on the analysis sample, and nothing it asserts depends on how fast it runs.
// The transport arm in the report: the scorecard of layers_transport, built from the table the SQL
// gives on the query's own sample (analysis/queries/layers_transport.sample.jsonl) and the same rows
// as registered traces, recounts every cell (AS, VTS, FC, FA, twice) from the rows and links each to
// the traces it counts; a table that disagrees with the rows is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../../core/paths.ts';
import { SqlSession } from '../../analysis/duck.ts';
import { finishRow, tableDef } from '../../analysis/tables.ts';
import { buildScorecards, type Trace } from '../../report-src/scorecards.ts';
import type { ReportRecord, Table } from '../../report-src/record.ts';
import { reportTables } from '../../report-src/record.ts';

const sample = path.join(paths.queries(), 'layers_transport.sample.jsonl');
const rows = fs.readFileSync(sample, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const traces: Trace[] = rows.map((row, i) => ({ id: i, run: 0, line: i + 1, row }));

async function recordWith(transport: Table): Promise<ReportRecord> {
  const tables = new Map<string, Table>(reportTables.map((name) => [name, { rows: [] } as unknown as Table]));
  tables.set('layers_transport', transport);
  return { runs: [], reasons: [], tasks: new Map(), tables } as unknown as ReportRecord;
}

test('the transport scorecard shows the table\'s cells and links each to the rows it counts', async () => {
  const session = await SqlSession.open({ layers: [sample], evidence: [sample] });
  const def = tableDef('layers_transport');
  let table: Table;
  try {
    table = { rows: (await session.query('layers_transport')).map((r) => finishRow(def, r)) } as unknown as Table;
  } finally {
    session.close();
  }
  const cards = buildScorecards(await recordWith(table), traces);
  const section = cards.sections.find((s) => s.id === 'layers_transport')!;
  assert.deepEqual(section.measures.map((m) => m.name), ['as', 'vts', 'fc', 'fa', 'twice']);
  const row = section.rows.find((r) => r.key.apps === 'small' && r.key.condition === 'lost-response' && r.key.policy === 'verified-semantic-recovery')!;
  assert.deepEqual([row.cells.fa!.k, row.cells.fa!.n], [1, 1], 'done, and the verified policy ended not done');
  assert.deepEqual(cards.lists[row.cells.fa!.hits]!.map((id) => rows[id].condition_id), ['cards-transport-lost-response-1']);
  const twice = section.rows.find((r) => r.key.apps === 'small' && r.key.condition === 'lost-response' && r.key.policy === 'semantic-recovery' && r.key.browser === 'chromium')!;
  assert.deepEqual([twice.cells.twice!.k, twice.cells.twice!.n], [1, 1], 'the store counted two writes');
});

test('a transport table that disagrees with the rows is refused, naming the cell', async () => {
  const session = await SqlSession.open({ layers: [sample], evidence: [sample] });
  const def = tableDef('layers_transport');
  let table: Table;
  try {
    const out = (await session.query('layers_transport')).map((r) => finishRow(def, r));
    const first = out.find((r) => r.fa_n === 1)!;
    first.fa_n = 0;
    table = { rows: out } as unknown as Table;
  } finally {
    session.close();
  }
  const record = await recordWith(table);
  assert.throws(() => buildScorecards(record, traces), /layers_transport\.json .* fa_n\/n: the table says 0\/1, the registered rows 1\/1/);
});
