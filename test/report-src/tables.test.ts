// shares the machine: no browser, pure lists. The report reads the tables named in record.ts's
// reportTables; a scorecard (or the audit) whose table is not among them stops the report, as a new
// arm's scorecard did once (layers_claims): the two lists are checked against each other here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportTables } from '../../report-src/record.ts';
import { sectionDefs } from '../../report-src/scorecards.ts';
import { auditTable, auditTracesTable } from '../../report-src/audit.ts';

test('the report reads every table its scorecards and its evaluator audit show', () => {
  const read = new Set<string>(reportTables);
  const missing = [...sectionDefs.map((d) => d.table), auditTable, auditTracesTable].filter((t) => !read.has(t));
  assert.deepEqual(missing, [], `add to reportTables in report-src/record.ts: ${missing.join(', ')}`);
});
