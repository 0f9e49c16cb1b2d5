// The trace rows the analysis reads (their types: core/contracts.ts, generated from
// schemas/trace.schema.json), and where they live: data/raw/<study>/<arm>/<run_id>.jsonl, any number of runs per arm.
import path from 'node:path';
import { paths } from '../core/paths.ts';
import { readJsonl } from '../core/jsonl.ts';
import { listFiles } from '../core/files.ts';

import type { TraceRow } from '../core/contracts.ts';

export type { EvidenceRow, LayersRow, TraceRow, TimelineEvent, Verdict } from '../core/contracts.ts';
export type Study = TraceRow['study'];
export const studies: readonly Study[] = ['layers', 'evidence'];

/** A row together with where it came from, so every problem can name its file and line. */
export interface Located<R> { row: R; file: string; line: number }

/** Every trace file of a study under data/raw, sorted (so every reader sees one order). */
export function rawFiles(study: Study, rawDir = paths.raw()): string[] {
  return listFiles(path.join(rawDir, study)).filter((f) => f.endsWith('.jsonl'));
}

/** Reads and validates every row of the given files against the trace schema. */
export function readRows<R extends TraceRow>(files: string[]): Located<R>[] {
  const out: Located<R>[] = [];
  for (const file of files) {
    readJsonl<R>(file, { schema: 'trace' }).forEach((row, i) => out.push({ row, file, line: i + 1 }));
  }
  return out;
}
