// The freeze ledger: manifests/ledger.jsonl, one hash-chained entry per freeze.
//
//   entry n: { seq: n, at, prev: sha256(line n-1), files: { path: sha256 }, reason }
//
// An entry snapshots every frozen input (prereg/*.md, data/tasks/**, data/labels/**). Freezing an
// unchanged tree adds nothing; an amendment is a new file and a new entry, never an edit.
import fs from 'node:fs';
import path from 'node:path';
import { frozenRoots, paths, rel } from '../../core/paths.ts';
import { sha256, sha256File } from '../../core/hash.ts';
import { validate } from '../../core/validate.ts';
import { readJsonlLines } from '../../core/jsonl.ts';
import { listFiles, appendDurable, withLock } from './files.ts';

import type { LedgerEntry } from '../../core/contracts.ts';

export type { LedgerEntry } from '../../core/contracts.ts';

export interface LedgerLine { entry: LedgerEntry; text: string; hash: string; line: number }

export const GENESIS = '0'.repeat(64);

/** Reads and validates every ledger line; [] when there is no ledger. */
export function readLedger(file = paths.ledger()): LedgerLine[] {
  if (!fs.existsSync(file)) return [];
  return readJsonlLines<LedgerEntry>(file, { schema: 'ledger-entry' }).map(({ value, text, line }) => ({ entry: value, text, hash: sha256(text), line }));
}

/** The hash every run records: sha256 of the head entry's line. */
export function headOf(lines: LedgerLine[]): LedgerLine | undefined {
  return lines.at(-1);
}

/** The frozen inputs as they are now: path (relative to the root) → sha256. */
export async function snapshot(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const { dir, pattern } of frozenRoots()) {
    for (const file of listFiles(dir)) {
      const within = path.relative(dir, file).split(path.sep).join('/');
      if (pattern.test(within)) files[rel(file)] = await sha256File(file);
    }
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

export interface Difference { file: string; change: 'changed' | 'added' | 'removed' }

/** What differs between a frozen snapshot and the tree. */
export function diffSnapshots(frozen: Record<string, string>, now: Record<string, string>): Difference[] {
  const out: Difference[] = [];
  for (const [file, hash] of Object.entries(frozen)) {
    if (!(file in now)) out.push({ file, change: 'removed' });
    else if (now[file] !== hash) out.push({ file, change: 'changed' });
  }
  for (const file of Object.keys(now)) if (!(file in frozen)) out.push({ file, change: 'added' });
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** Problems in the chain: a bad seq, or a prev that does not hash the line before (that line was edited). */
export function chainProblems(lines: LedgerLine[], name = 'manifests/ledger.jsonl'): string[] {
  const problems: string[] = [];
  lines.forEach((l, i) => {
    if (l.entry.seq !== i) problems.push(`${name}:${l.line}: seq is ${l.entry.seq}, expected ${i}`);
    const expected = i === 0 ? GENESIS : lines[i - 1]!.hash;
    if (l.entry.prev !== expected) {
      problems.push(
        i === 0
          ? `${name}:1: the first entry's prev must be ${GENESIS.slice(0, 8)}…`
          : `${name}:${i}: this line was edited after it was written (line ${l.line}'s prev no longer matches its hash)`,
      );
    }
    if (i > 0 && Date.parse(l.entry.at) < Date.parse(lines[i - 1]!.entry.at)) {
      problems.push(`${name}:${l.line}: entry is dated before the entry above it`);
    }
  });
  return problems;
}

export interface FreezeResult { added: boolean; entry: LedgerEntry; head: string }

/** Appends a new entry when the frozen inputs changed since the head; otherwise adds nothing. */
export async function freeze(reason: string): Promise<FreezeResult> {
  return withLock(`${paths.ledger()}.lock`, async () => {
    const lines = readLedger();
    const head = headOf(lines);
    const files = await snapshot();
    if (head && diffSnapshots(head.entry.files, files).length === 0) {
      return { added: false, entry: head.entry, head: head.hash };
    }
    const entry: LedgerEntry = {
      seq: lines.length,
      at: new Date().toISOString(),
      prev: head ? head.hash : GENESIS,
      files,
      reason,
    };
    validate('ledger-entry', entry, { file: 'new ledger entry' });
    const text = JSON.stringify(entry);
    appendDurable(paths.ledger(), text + '\n');
    return { added: true, entry, head: sha256(text) };
  });
}
