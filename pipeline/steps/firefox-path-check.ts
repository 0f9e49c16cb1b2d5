// rstackbench firefox-path-check: does Firefox's lean path (pipeline/browser/firefox-path.ts) agree with
// the registered rows as closely as Playwright's own path does when it is simply run again? (issue 38)
//
//   two reruns on Playwright's path ─┐  (make reproduce REDO=1 summaries: each arm's flips against
//   one rerun on the lean path ──────┴─▶ its registered run) ─▶ per arm: the spread, the lean count, pass?
//
// The rule is the one frozen in the check's amendments (prereg/layers-firefox-path-check.md,
// prereg/evidence-arm-a-firefox-path-check.md, prereg/evidence-arm-b-firefox-path-check.md) before
// the lean rerun ran. For each Firefox arm in all three:
//   spread    the larger of the two Playwright reruns' unflagged flips, and of their flips in all
//   passes    the lean rerun ended 0 with every registered unit and no other, and its unflagged
//             flips and its flips in all are each no more than the spread's
// Reads only the summaries; writes the result (default bench/firefox-path/check.json).
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { codeRoot, rel } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { RedoArm, RedoSummary } from '../../core/contracts.ts';
import { writeFileAtomic } from '../kernel/files.ts';
import { isMain } from '../../core/entry.ts';

export interface ArmCheck {
  arm: string;
  registered_rows: number;
  playwright: { flips: number; flagged_flips: number; all: number; wall_s: number }[];
  lean: { flips: number; flagged_flips: number; all: number; wall_s: number; exit: number; rows: number; only_registered: number; only_scratch: number };
  spread: { flips: number; all: number };
  passes: boolean;
  why: string;
}

export interface PathCheck {
  schema: 'firefox-path-check/1';
  inputs: { file: string; firefox_path: 'playwright' | 'lean'; commit: string | null; dirty: boolean; started_at: string; load_start: number[]; load_end: number[] }[];
  arms: ArmCheck[];
}

const pathOf = (a: RedoArm) => a.firefox_path ?? 'playwright';
const counts = (a: RedoArm) => ({ flips: a.flips.length, flagged_flips: a.flagged_flips.length, all: a.flips.length + a.flagged_flips.length, wall_s: a.wall_s });

export function readSummary(file: string): RedoSummary {
  if (!fs.existsSync(file)) throw new UsageError(`no such summary: ${file} (make reproduce REDO=1 writes <scratch>/reproduce-redo.json)`);
  return validate<RedoSummary>('reproduce-redo', JSON.parse(fs.readFileSync(file, 'utf8')), { file });
}

/** The rule, arm by arm, over what the three summaries have in common among Firefox arms. */
export function checkPaths(playwright: [RedoSummary, RedoSummary], lean: RedoSummary): ArmCheck[] {
  const firefoxArms = (s: RedoSummary) => s.arms.filter((a) => a.browser === 'firefox');
  for (const s of playwright) for (const a of firefoxArms(s)) if (pathOf(a) !== 'playwright') throw new UsageError(`${a.arm} of a Playwright-path summary took the ${pathOf(a)} path`);
  for (const a of firefoxArms(lean)) if (pathOf(a) !== 'lean') throw new UsageError(`${a.arm} of the lean summary took the ${pathOf(a)} path`);
  const names = firefoxArms(lean).map((a) => a.arm).filter((n) => playwright.every((s) => s.arms.some((a) => a.arm === n)));
  if (!names.length) throw new UsageError('the three summaries have no Firefox arm in common');
  return names.map((name) => {
    const [p1, p2] = playwright.map((s) => s.arms.find((a) => a.arm === name)!) as [RedoArm, RedoArm];
    const l = lean.arms.find((a) => a.arm === name)!;
    for (const p of [p1, p2]) if (p.exit !== 0 || p.only_registered || p.only_scratch) throw new UsageError(`${name}: a Playwright-path rerun is not whole (exit ${p.exit}, ${p.only_registered} registered units missing, ${p.only_scratch} others): no spread to judge against`);
    const spread = { flips: Math.max(p1.flips.length, p2.flips.length), all: Math.max(counts(p1).all, counts(p2).all) };
    const c = counts(l);
    const whole = l.exit === 0 && l.only_registered === 0 && l.only_scratch === 0;
    const passes = whole && c.flips <= spread.flips && c.all <= spread.all;
    const why = !whole
      ? `the lean rerun is not whole (exit ${l.exit}, ${l.only_registered} registered units missing, ${l.only_scratch} others)`
      : `${c.flips} unflagged flips against at most ${spread.flips}, ${c.all} in all against at most ${spread.all}`;
    return {
      arm: name, registered_rows: l.registered_rows, playwright: [counts(p1), counts(p2)],
      lean: { ...c, exit: l.exit, rows: l.rows, only_registered: l.only_registered, only_scratch: l.only_scratch }, spread, passes, why,
    };
  });
}

if (isMain(import.meta.url)) {
  await main({
    name: 'firefox-path-check',
    summary: "whether Firefox's lean path agrees with the registered rows within the spread of two reruns on Playwright's path, arm by arm",
    usage: 'npx rstackbench firefox-path-check --playwright A.json,B.json --lean C.json [--out FILE]',
    options: {
      playwright: { type: 'string', help: 'two make reproduce REDO=1 summaries (reproduce-redo.json) on Playwright\'s path, comma-separated' },
      lean: { type: 'string', help: 'one summary on the lean path (make reproduce REDO=1 ARGS=--firefox-path lean)' },
      out: { type: 'string', help: 'where the result goes (default bench/firefox-path/check.json)' },
    },
    async run(values) {
      const pw = (values.playwright ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (pw.length !== 2 || !values.lean) throw new UsageError('give --playwright A.json,B.json (two summaries) and --lean C.json');
      const files = [...pw, values.lean].map((f) => path.resolve(f));
      const [a, b, c] = files.map(readSummary) as [RedoSummary, RedoSummary, RedoSummary];
      const arms = checkPaths([a, b], c);
      const result: PathCheck = {
        schema: 'firefox-path-check/1',
        inputs: files.map((file, i) => ({ file: rel(file), firefox_path: i < 2 ? 'playwright' as const : 'lean' as const, commit: [a, b, c][i]!.commit, dirty: [a, b, c][i]!.dirty, started_at: [a, b, c][i]!.started_at, load_start: [a, b, c][i]!.load_start, load_end: [a, b, c][i]!.load_end })),
        arms,
      };
      const out = path.resolve(values.out ?? path.join(codeRoot, 'bench', 'firefox-path', 'check.json'));
      fs.mkdirSync(path.dirname(out), { recursive: true });
      writeFileAtomic(out, JSON.stringify(result, null, 2) + '\n');
      const lines = [rel(out), ...arms.map((x) => `  ${x.arm.padEnd(16)} ${x.passes ? 'passes' : 'does not pass'}: ${x.why} (Playwright's reruns ${x.playwright.map((p) => `${p.flips}+${p.flagged_flips}`).join(', ')}; wall ${x.playwright.map((p) => `${p.wall_s} s`).join(', ')} → lean ${x.lean.wall_s} s)`)];
      process.stdout.write(lines.join('\n') + '\n');
      return 0;
    },
  });
}
