// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '../../core/validate.ts';
import { parseJsonl } from '../../core/jsonl.ts';
import { ValidationError } from '../../core/errors.ts';

const evidenceRow = {
  schema: 'trace/1', study: 'evidence', arm: 'controlled', run_id: 'r', condition_id: 'c', policy: 'click',
  browser: { name: 'chromium', version: '1' }, ledger_head: 'b'.repeat(64), started_at: '2026-01-01T00:00:00Z', elapsed_ms: 3,
  scenario: 'success', delay_ms: 50, rep: 0, truth: 'success',
  events: [{ t_ms: 0, source: 'runner', type: 'dispatch' }],
  verdicts: { 'dom-optimistic': { accept: true, latency_ms: 4 } },
};

test('a valid evidence row passes', () => {
  assert.doesNotThrow(() => validate('trace', evidenceRow, { file: 'x.jsonl', line: 1 }));
});

test('ajv rejects a malformed row and the error names file, line and field', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...evidenceRow, truth: 'maybe' }, /^x\.jsonl:7: field truth must be one of/],
    [{ ...evidenceRow, verdicts: { dom: { accept: 'yes', latency_ms: 1 } } }, /field verdicts\.dom\.accept must be boolean/],
    [{ ...evidenceRow, browser: { name: 'chromium' } }, /field browser\.version is missing/],
    [{ ...evidenceRow, apparent_success: true }, /field apparent_success is not allowed here/],
    [{ ...evidenceRow, events: [{ t_ms: 'soon', source: 'dom', type: 'x' }] }, /field events\.0\.t_ms must be number/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => validate('trace', value, { file: 'x.jsonl', line: 7 }), (e) => {
      assert.ok(e instanceof ValidationError);
      assert.equal(e.exitCode, 2);
      assert.match(e.message, message);
      return true;
    });
  }
});

test('reading JSONL names the line of a broken row', () => {
  const text = JSON.stringify(evidenceRow) + '\n{"schema": \n';
  assert.throws(() => parseJsonl(text, 'data/raw/x.jsonl', { schema: 'trace' }), /data\/raw\/x\.jsonl:2: field \(root\) is not valid JSON/);
});
