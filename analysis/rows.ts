// The trace rows the analysis reads (schemas/trace.schema.json, trace/1), as TypeScript types,
// and where they live: data/raw/<study>/<arm>/<run_id>.jsonl, any number of runs per arm.
import path from 'node:path';
import { paths } from '../core/paths.ts';
import { readJsonl } from '../core/jsonl.ts';
import { listFiles } from '../core/files.ts';

export type Study = 'layers' | 'evidence';
export const studies: readonly Study[] = ['layers', 'evidence'];

interface CommonRow {
  schema: 'trace/1';
  study: Study;
  arm: string;
  run_id: string;
  condition_id: string;
  policy: string;
  browser: { name: 'chromium' | 'firefox'; version: string };
  ledger_head: string;
  started_at: string;
  elapsed_ms: number;
  smoke?: boolean;
  error?: string | null;
}

export interface LayersRow extends CommonRow {
  study: 'layers';
  template: 'cards' | 'profile' | 'modal';
  layer: Layer;
  severity: number;
  apparent_success: boolean;
  vts: boolean;
  false_completion: boolean;
  /** null only in an outside agent's row that did not report them (arm agent) */
  actions: number | null;
  retries: number | null;
  horizon_ms: number;
  persisted: Record<string, unknown>;
  target: Record<string, unknown>;
  timing_margin_ms?: number | null;
  timing_sensitive?: boolean;
  prompt?: 'ordinary' | 'reliability';
  plan_id?: string;
  /** what the agent said (arms agent, pilot); null when it gave no claim */
  claim?: { done: boolean; message?: string } | null;
  /** the outside agent that made the row (arm agent) */
  agent?: { name: string; command: string; sha256: string | null };
}

export interface TimelineEvent {
  t_ms: number;
  source: 'dom' | 'network' | 'app' | 'server' | 'runner';
  type: string;
  request_id?: string;
  url?: string;
  status?: number;
  detail?: Record<string, unknown>;
}

export interface Verdict { accept: boolean; latency_ms: number | null }

export interface EvidenceRow extends CommonRow {
  study: 'evidence';
  scenario: string;
  delay_ms: number;
  rep: number;
  truth: 'success' | 'failure';
  case_id?: string;
  events: TimelineEvent[];
  verdicts: Record<string, Verdict>;
}

export type TraceRow = LayersRow | EvidenceRow;

/** The order the papers present the layers in (not alphabetical). */
export const layerOrder = ['baseline', 'access', 'perception', 'action', 'state', 'verification'] as const;
export type Layer = (typeof layerOrder)[number];

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
