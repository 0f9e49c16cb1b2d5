// The lean path's check (pipeline/steps/firefox-path-check.ts), on summaries made here: the spread is
// the larger of two Playwright-path reruns' flips, the lean rerun passes an arm only within it and
// whole, summaries on the wrong path are refused, and the verb writes what it judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RedoArm, RedoSummary } from '../../../core/contracts.ts';
import { validate } from '../../../core/validate.ts';
import { UsageError } from '../../../core/errors.ts';
import { checkPaths } from '../../../pipeline/steps/firefox-path-check.ts';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';

const flips = (n: number) => Array.from({ length: n }, (_, i) => ({ unit: `u${i}`, change: 'vts true → false' }));

function arm(name: string, firefoxPath: 'playwright' | 'lean' | undefined, unflagged: number, flagged: number, extra: Partial<RedoArm> = {}): RedoArm {
  return {
    arm: name, study: name === 'arm-a' ? 'evidence' : 'layers', browser: 'firefox', workers: 3, ...(firefoxPath ? { firefox_path: firefoxPath } : {}),
    exit: 0, wall_s: 100, rows: 30, registered_file: `data/raw/x/${name}.jsonl`, registered_rows: 30, scratch_file: `data/raw/x/${name}-scratch.jsonl`,
    same: 30 - unflagged - flagged, flips: flips(unflagged), flagged_flips: flips(flagged), only_registered: 0, only_scratch: 0, ...extra,
  };
}

function summary(arms: RedoArm[]): RedoSummary {
  return validate<RedoSummary>('reproduce-redo', {
    schema: 'reproduce-redo/1', scratch: '/tmp/s', started_at: '2026-12-04T04:00:00.000Z', ended_at: '2026-12-04T04:30:00.000Z', commit: 'a'.repeat(40), dirty: false,
    ledger_head: 'b'.repeat(64), selection: null, shard: null, load_start: [0, 0, 0], load_end: [1, 1, 1], wall_s: 1800, record_unchanged: true, arms,
  }, { file: 'made-here' });
}

test('the spread is the larger of the two Playwright reruns, per arm; the lean rerun passes within it and fails past it or when not whole', () => {
  // a summary from before the lean path existed has no firefox_path: Playwright's
  const pw1 = summary([arm('main-firefox', undefined, 3, 10), arm('arm-a', undefined, 0, 0)]);
  const pw2 = summary([arm('main-firefox', 'playwright', 5, 6), arm('arm-a', 'playwright', 0, 0)]);
  const lean = summary([arm('main-firefox', 'lean', 5, 8), arm('arm-a', 'lean', 1, 0)]);
  const [main, armA] = checkPaths([pw1, pw2], lean);
  assert.deepEqual(main!.spread, { flips: 5, all: 13 });
  assert.equal(main!.passes, true, main!.why);
  assert.equal(armA!.passes, false, 'one flip where both reruns had none');
  assert.match(armA!.why, /1 unflagged flips against at most 0/);

  const tooMany = checkPaths([pw1, pw2], summary([arm('main-firefox', 'lean', 4, 10)]));
  assert.equal(tooMany[0]!.passes, false, '14 in all against at most 13');
  const short = checkPaths([pw1, pw2], summary([arm('main-firefox', 'lean', 0, 0, { only_registered: 2, rows: 28 })]));
  assert.equal(short[0]!.passes, false);
  assert.match(short[0]!.why, /not whole/);
});

test('summaries on the wrong path, with no Firefox arm in common, or a Playwright rerun that is not whole are refused', () => {
  const pw = summary([arm('main-firefox', 'playwright', 1, 1)]);
  assert.throws(() => checkPaths([pw, pw], summary([arm('main-firefox', 'playwright', 0, 0)])), (e: unknown) => e instanceof UsageError && /lean summary took the playwright path/.test(e.message));
  assert.throws(() => checkPaths([pw, summary([arm('main-firefox', 'lean', 0, 0)])], summary([arm('main-firefox', 'lean', 0, 0)])), (e: unknown) => e instanceof UsageError && /Playwright-path summary took the lean path/.test(e.message));
  assert.throws(() => checkPaths([pw, pw], summary([arm('arm-a', 'lean', 0, 0)])), (e: unknown) => e instanceof UsageError && /no Firefox arm in common/.test(e.message));
  assert.throws(() => checkPaths([pw, summary([arm('main-firefox', 'playwright', 0, 0, { exit: 1 })])], summary([arm('main-firefox', 'lean', 0, 0)])), (e: unknown) => e instanceof UsageError && /not whole/.test(e.message));
});

test('the verb reads three summary files and writes its judgement; a wrong count of summaries is a usage error', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-path-check-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, s: RedoSummary) => { fs.writeFileSync(path.join(dir, name), JSON.stringify(s)); return path.join(dir, name); };
  const a = write('a.json', summary([arm('main-firefox', 'playwright', 2, 2)]));
  const b = write('b.json', summary([arm('main-firefox', 'playwright', 1, 4)]));
  const c = write('c.json', summary([arm('main-firefox', 'lean', 2, 3)]));
  const out = path.join(dir, 'check.json');
  const r = await run('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/steps/firefox-path-check.ts'), '--playwright', `${a},${b}`, '--lean', c, '--out', out], { cwd: codeRoot });
  assert.equal(r.exitCode, 0, r.stderr);
  assert.match(r.stdout, /main-firefox\s+passes: 2 unflagged flips against at most 2, 5 in all against at most 5/);
  const written = JSON.parse(fs.readFileSync(out, 'utf8'));
  assert.deepEqual(written.inputs.map((i: { firefox_path: string }) => i.firefox_path), ['playwright', 'playwright', 'lean']);
  assert.equal(written.arms[0].passes, true);
  const bad = await run('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/steps/firefox-path-check.ts'), '--playwright', a, '--lean', c], { cwd: codeRoot });
  assert.equal(bad.exitCode, 2, bad.stderr);
});
