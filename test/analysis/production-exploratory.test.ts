// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Arm B's registered medians (prereg/evidence-arm-b.md) from recorded timelines, counted by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { productionExploratory } from '../../analysis/production-exploratory.ts';
import type { EvidenceRow, Located } from '../../analysis/rows.ts';

const title = (t: number, value: string) => ({ t_ms: t, source: 'dom', type: 'title', detail: { title: value } });
const body = (t: number, hash: string) => ({ t_ms: t, source: 'dom', type: 'body', detail: { chars: 10, sha256: hash } });
const dcl = (t: number) => ({ t_ms: t, source: 'dom', type: 'domcontentloaded' });

function trial(id: string, scenario: string, events: object[], browser = 'firefox'): Located<EvidenceRow> {
  const row = { arm: 'arm-b', browser: { name: browser, version: '1' }, condition_id: `tiny/${id}/0`, scenario, truth: scenario === 'navigation' ? 'success' : 'failure', events, verdicts: {} };
  return { file: 'sample', line: 1, row: row as unknown as EvidenceRow };
}

test('medians of domcontentloaded, the title-settlement wait and the body-stability wait, per browser', () => {
  const rows = [
    // dcl 100; the loading shell is skipped, "Home" confirmed at 500 → wait 400; body still at 500, 700, 900 → wait 400
    trial('a', 'navigation', [dcl(100), title(100, 'Loading…'), title(300, 'Home'), title(500, 'Home'), body(500, 'h'), body(700, 'h'), body(900, 'h')]),
    // dcl 300; "Page" confirmed at 500 → wait 200; body changes at 700, then still at 700, 900, 1100 → wait 600
    trial('b', 'navigation', [dcl(300), title(300, 'Page'), title(500, 'Page'), body(500, 'x'), body(700, 'y'), body(900, 'y'), body(1100, 'y')]),
    // dcl 200; no title ever: no settlement, no body stability; a semantic negative
    trial('c', 'semantic-negative', [dcl(200)]),
    // another arm is not Arm B
    { ...trial('d', 'navigation', [dcl(5)]), row: { ...trial('d', 'navigation', [dcl(5)]).row, arm: 'controlled' } as EvidenceRow },
  ];
  assert.deepEqual(productionExploratory(rows), [{
    sample: 'tiny', browser: 'firefox', trials: 3,
    semantic_negative_n: 1, title_settled_semantic_accept_n: 0, body_stable_semantic_accept_n: 0,
  }]);
});
