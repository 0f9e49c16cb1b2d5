// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The source papers are cited and compared, never copied: no run of ten or more consecutive words of
// theirs appears in any tracked text file. The papers live in ../shared/seeds/ beside the repository
// (as in CI: a fresh clone with a copy of shared/ beside it), or where RSTACK_SEEDS points; a clone
// without them skips this test and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { codeRoot } from '../../core/paths.ts';

const seeds = process.env.RSTACK_SEEDS ? path.resolve(process.env.RSTACK_SEEDS) : path.resolve(codeRoot, '..', 'shared', 'seeds');
const RUN = 10;

const words = (text: string) => text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Every run of RUN consecutive words of the source papers. */
function sourceRuns(): Set<string> {
  const runs = new Set<string>();
  for (const f of fs.readdirSync(seeds).filter((f) => f.endsWith('.txt'))) {
    const w = words(fs.readFileSync(path.join(seeds, f), 'utf8'));
    for (let i = 0; i + RUN <= w.length; i++) runs.add(w.slice(i, i + RUN).join(' '));
  }
  return runs;
}

/** The first run of the text that the source papers contain, or null. */
export function copiedRun(text: string, runs: Set<string>): string | null {
  const w = words(text);
  for (let i = 0; i + RUN <= w.length; i++) {
    const run = w.slice(i, i + RUN).join(' ');
    if (runs.has(run)) return run;
  }
  return null;
}

// machine-written records (trace rows, hashes, lock files) hold no prose
const skipped = (f: string) => /^(data\/(raw|excluded)\/|manifests\/|package-lock\.json$)/.test(f) || /\.(png|pdf|svg|jsonl)$/.test(f);

test('no sentence of the source papers is in the repository (no run of ten consecutive words of theirs)', (t) => {
  if (!fs.existsSync(seeds)) {
    t.skip(`the source papers are not at ${seeds} (they are not part of a clone; set RSTACK_SEEDS or put shared/seeds beside the repository)`);
    return;
  }
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z'], { cwd: codeRoot, encoding: 'utf8', maxBuffer: 256 << 20 }).split('\0').filter(Boolean);
  } catch {
    t.skip('not a git checkout: no list of tracked files');
    return;
  }
  const runs = sourceRuns();
  assert.ok(runs.size > 1000, `read the source papers in ${seeds}`);
  const copied: string[] = [];
  for (const f of files.filter((f) => !skipped(f))) {
    const file = path.join(codeRoot, f);
    if (!fs.existsSync(file) || fs.statSync(file).size > 2_000_000) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (text.includes('\0')) continue;
    const run = copiedRun(text, runs);
    if (run) copied.push(`${f}: "${run}"`);
  }
  assert.deepEqual(copied, [], `sentences of the source papers in tracked files:\n${copied.join('\n')}`);
});

test('the check finds a copied run of ten words and lets a shorter one pass', () => {
  const runs = new Set(['a b c d e f g h i j']);
  assert.equal(copiedRun('x A, b c d e f g h i J y', runs), 'a b c d e f g h i j');
  assert.equal(copiedRun('a b c d e f g h i', runs), null);
});
