// The deviations section, generated from the record and from nothing typed by hand:
//
//   manifests/ledger.jsonl (when each prereg was frozen) ─┐
//   prereg/*.md front matter (supersedes, amends, trigger) ├─▶ deviations_amendments
//   data/raw/** and data/excluded/** run files (rows)      ├─▶ deviations_runs      (every run file)
//   data/excluded/REASONS.jsonl (why a file was moved)     ├─▶ deviations_overlaps  (runs that ran at once)
//   data/runs.jsonl (sessions: commit, load, exit)         ┘─▶ deviations_gaps      (what the record lacks)
//   data/raw/layers/{real-apps,transport} rows, proxy/faults/layers-v1.json ─▶ deviations_held_writes
//                                                               (rows a late held write may have reached)
//
// An amendment's trigger is read from the record: the runs of its study and arm whose last row
// falls between the ledger entry before its freeze and its freeze (a smoke run, a registered attempt,
// a registered run), or, when there is none, "none recorded"; the trigger the amendment itself declares
// (front matter `trigger:`) is shown beside it, never instead of it. Runs from before data/runs.jsonl
// existed have no recorded commit or load; their sessions are inferred from the ledger heads their rows
// carry, and the table says so.
import { layerTable } from '../proxy/src/index.ts';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot, paths, rel } from '../core/paths.ts';
import { sha256 } from '../core/hash.ts';
import { listFiles } from '../core/files.ts';
import { readJsonlLines } from '../core/jsonl.ts';
import { parseFrontMatter } from '../core/front-matter.ts';
import type { TableRow } from './tables.ts';
import type * as Contract from '../core/contracts.ts';


/** a ledger entry (schemas/ledger-entry.schema.json) with the hash of its line, which rows name as ledger_head */
type LedgerEntry = Contract.LedgerEntry & { hash: string };
interface Reason { at: string; file: string; from?: string | null; rows?: number; reason: string }
interface Session { event: 'start' | 'end'; run_id: string; file: string; registered: boolean; at: string; commit: string | null; dirty: boolean; load: number[]; rows: number; exit?: number; excluded?: string[] }
interface AnyRow { run_id: string; study: string; arm: string; condition_id: string; policy: string; browser: { name: string }; ledger_head: string; started_at: string; elapsed_ms?: number; smoke?: boolean; vts?: boolean; apparent_success?: boolean; verdicts?: Record<string, { accept: boolean }>; rep?: number }

export interface RunFile {
  file: string; run_id: string; study: string; arm: string; browser: string;
  status: 'registered' | 'superseded' | 'merged' | 'smoke' | 'excluded';
  rows: AnyRow[]; first: number; last: number; heads: number[];
}

const readLines = <T>(file: string): T[] => {
  if (!fs.existsSync(file)) return [];
  const out: T[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try { out.push(JSON.parse(line) as T); } catch { /* a torn line is the run's business; it is excluded there */ }
  }
  return out;
};
const iso = (t: number | null) => (t === null || !Number.isFinite(t) ? null : new Date(t).toISOString());

export function readLedgerEntries(): LedgerEntry[] {
  const file = paths.ledger();
  if (!fs.existsSync(file)) return [];
  return readJsonlLines<Contract.LedgerEntry>(file, { schema: 'ledger-entry' }).map(({ value, text }) => ({ ...value, hash: sha256(text) }));
}

export function readRunFiles(ledger: LedgerEntry[], reasons: Reason[]): RunFile[] {
  const seqOf = new Map(ledger.map((e) => [e.hash, e.seq]));
  const movedFrom = new Map(reasons.filter((r) => r.from).map((r) => [r.file, r.from!]));
  // a shard file moved aside by make merge is part of a registered run, not an attempt it replaced
  const merged = new Set(reasons.filter((r) => r.from && r.reason.startsWith('merged into ')).map((r) => r.file));
  const files = [paths.raw(), paths.excluded()].flatMap((dir) => listFiles(dir)).filter((f) => f.endsWith('.jsonl') && path.basename(f) !== 'REASONS.jsonl');
  const runs: RunFile[] = [];
  for (const abs of files.sort()) {
    const rows = readLines<AnyRow>(abs).filter((r) => r && typeof r.started_at === 'string' && r.browser);
    if (!rows.length) continue;
    const file = rel(abs);
    const excluded = file.startsWith('data/excluded/');
    const smoke = rows.some((r) => r.smoke === true);
    const status: RunFile['status'] = !excluded ? 'registered' : smoke ? 'smoke' : merged.has(file) ? 'merged' : movedFrom.get(file)?.startsWith('data/raw/') ? 'superseded' : 'excluded';
    const starts = rows.map((r) => Date.parse(r.started_at));
    const ends = rows.map((r) => Date.parse(r.started_at) + (r.elapsed_ms ?? 0));
    runs.push({
      file, run_id: rows[0]!.run_id, study: rows[0]!.study, arm: rows[0]!.arm, browser: rows[0]!.browser.name, status, rows,
      first: Math.min(...starts), last: Math.max(...ends),
      heads: [...new Set(rows.map((r) => seqOf.get(r.ledger_head) ?? -1))].sort((a, b) => a - b),
    });
  }
  return runs.sort((a, b) => a.first - b.first || a.file.localeCompare(b.file));
}

/** (condition, policy[, rep]) → outcome, for comparing one attempt with its successor. */
function outcomes(run: RunFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of run.rows) {
    const key = `${r.condition_id} ${r.policy}${r.rep !== undefined && run.study === 'evidence' ? ` rep ${r.rep}` : ''}`;
    const value = run.study === 'layers'
      ? `vts ${r.vts}, as ${r.apparent_success}`
      : Object.entries(r.verdicts ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([p, v]) => `${p} ${v.accept ? 'accept' : 'reject'}`).join(', ');
    out.set(key, value);
  }
  return out;
}

export function outcomeDifferences(a: RunFile, b: RunFile, listed = 12): { shared: number; n: number; list: string } {
  const x = outcomes(a);
  const y = outcomes(b);
  const diffs: string[] = [];
  let shared = 0;
  for (const [k, v] of x) {
    const w = y.get(k);
    if (w === undefined) continue;
    shared++;
    if (w !== v) {
      // name only what changed: "cards-access-01 selector-only: vts true→false"
      const before = v.split(', ');
      const after = w.split(', ');
      const changed = before.map((part, i) => [part, after[i] ?? ''] as const).filter(([p, q]) => p !== q)
        .map(([p, q]) => `${p.split(' ').slice(0, -1).join(' ')} ${p.split(' ').at(-1)}→${q.split(' ').at(-1)}`);
      diffs.push(`${k}: ${changed.join(', ')}`);
    }
  }
  diffs.sort();
  const list = diffs.slice(0, listed).join('; ') + (diffs.length > listed ? `; and ${diffs.length - listed} more` : '');
  return { shared, n: diffs.length, list };
}

const sessionsOf = (log: Session[], run: RunFile) => log.filter((s) => s.run_id === run.run_id);

export interface DeviationTables {
  deviations_amendments: TableRow[];
  deviations_runs: TableRow[];
  deviations_overlaps: TableRow[];
  deviations_gaps: TableRow[];
  deviations_held_writes: TableRow[];
}

/** the bound taken on the time from a real-app row's read to its proxy's reset (the grace, then the browser context's close) */
export const READ_TO_RESET_BOUND_MS = 1000;

interface RealAppWrite { t: number; action: string; reached_app: number | null; app_answered: number | null }
interface RealAppRow extends AnyRow {
  app: string; layer: string; severity: number; also?: { layer: string; severity: number };
  real_app: { writes: RealAppWrite[]; read_at: number; boundary_at: number };
}

/**
 * Issue 47, item 3: before the proxy's reset waited for writes on their way to the app, a State
 * write forwarded after a real-app row's read could reach the app after the next condition of the
 * same app had restored it. From each registered run file of the real-apps and transport arms, in
 * the order the rows were made: the row after one whose held write was at the app, unanswered, when
 * its row was made ("in flight"), or was due to be forwarded between its read and its reset (within
 * READ_TO_RESET_BOUND_MS after the boundary's grace: "due before the reset"); whether it then landed
 * after the restore the record cannot say, so every such row is listed. `vts_without_own_write`:
 * the listed row's store held its target though none of its own writes had reached the app by its
 * read, the one outcome a late write could have made, and the one that would show it did.
 */
export function heldWriteDeviations(runs: RunFile[], forwardAfterMs: readonly number[]): TableRow[] {
  const out: TableRow[] = [];
  for (const run of runs.filter((r) => r.status === 'registered' && r.study === 'layers' && (r.arm === 'real-apps' || r.arm === 'transport'))) {
    const rows = (run.rows as RealAppRow[]).filter((r) => r.real_app).sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
    const previous = new Map<string, RealAppRow>();
    for (const row of rows) {
      const before = previous.get(row.app);
      previous.set(row.app, row);
      if (!before) continue;
      const stateSeverity = before.layer === 'state' ? before.severity : before.also?.layer === 'state' ? before.also.severity : null;
      const t0 = Date.parse(before.started_at);
      let how: string | null = null;
      for (const w of before.real_app.writes.filter((x) => x.action === 'answered')) {
        if (w.reached_app !== null && w.app_answered === null) { how = 'in flight'; break; }
        if (w.reached_app === null && stateSeverity !== null) {
          const due = w.t + forwardAfterMs[stateSeverity - 1]!;
          if (due >= before.real_app.read_at && due <= before.real_app.boundary_at + 100 + READ_TO_RESET_BOUND_MS && t0 + due < Date.parse(row.started_at)) { how = 'due before the reset'; break; }
        }
      }
      if (!how) continue;
      const own = row.real_app.writes.some((w) => w.reached_app !== null && w.reached_app <= row.real_app.read_at);
      out.push({
        file: run.file, condition_id: row.condition_id, policy: row.policy,
        after_condition: before.condition_id, after_policy: before.policy, held_write: how,
        vts: row.vts ?? null, vts_without_own_write: row.vts === true && !own,
      });
    }
  }
  return out;
}

export function deviations(): DeviationTables {
  const ledger = readLedgerEntries();
  const reasons = readLines<Reason>(paths.exclusionLog());
  const log = readLines<Session>(paths.runLog()).filter((s) => s && (s.event === 'start' || s.event === 'end'));
  const runs = readRunFiles(ledger, reasons);

  // ── amendments: every prereg, when it was frozen, what preceded the freeze ──
  const preregDir = paths.prereg();
  const preregs = fs.existsSync(preregDir) ? fs.readdirSync(preregDir).filter((f) => f.endsWith('.md')).sort() : [];
  const amendments: TableRow[] = preregs.map((name) => {
    const file = `prereg/${name}`;
    let fm: Record<string, unknown> = {};
    try { fm = parseFrontMatter(fs.readFileSync(path.join(preregDir, name), 'utf8'), file); } catch { /* make verify names a broken front matter */ }
    const frozen = ledger.find((e) => file in e.files);
    const frozenAt = frozen ? Date.parse(frozen.at) : null;
    const previous = frozen ? ledger.filter((e) => e.seq < frozen.seq).at(-1) : undefined;
    const since = previous ? Date.parse(previous.at) : -Infinity;
    const same = runs.filter((r) => r.study === fm.study && r.arm === fm.arm);
    const preceding = frozenAt === null ? [] : same.filter((r) => r.last > since && r.last <= frozenAt);
    const rowsBefore = frozenAt === null ? [] : same.filter((r) => r.status === 'registered' || r.status === 'superseded').flatMap((r) => r.rows.filter((x) => Date.parse(x.started_at) < frozenAt).map(() => r.run_id));
    const relation = fm.supersedes ? `supersedes ${fm.supersedes}` : fm.amends ? `amends ${fm.amends}` : 'original';
    const triggerKind = frozenAt === null
      ? 'not frozen yet'
      : relation === 'original'
        ? (preceding.some((r) => r.status !== 'smoke') ? 'original, frozen after registered rows' : 'original')
        : preceding.length
          ? [...new Set(preceding.map((r) => (r.status === 'smoke' ? 'smoke run' : r.status === 'superseded' ? 'registered attempt' : r.status === 'registered' ? 'registered run' : 'excluded run')))].join(' + ')
          : 'none recorded';
    return {
      prereg: file,
      id: (fm.id as string) ?? null,
      study: (fm.study as string) ?? null,
      arm: (fm.arm as string) ?? null,
      relation,
      ledger_seq: frozen?.seq ?? null,
      frozen_at: frozen?.at ?? null,
      record_trigger: triggerKind,
      trigger_runs: preceding.map((r) => `${r.run_id} (${r.status}, ${r.rows.length} rows, ${iso(r.first)!.slice(11, 19)}–${iso(r.last)!.slice(11, 19)})`).join('; ') || null,
      declared_trigger: (fm.trigger as string) ?? null,
      registered_rows_before: rowsBefore.length,
      registered_runs_before: [...new Set(rowsBefore)].join(', ') || null,
      changes: (fm.title as string) ?? null,
    };
  });

  // ── runs: every run file, its status, sessions, and how it differs from its successor ──
  const runRows: TableRow[] = runs.map((run) => {
    const reason = [...reasons].reverse().find((r) => r.file === run.file);
    const sessions = sessionsOf(log, run);
    const starts = sessions.filter((s) => s.event === 'start');
    const successor = run.status === 'registered' ? undefined
      : runs.find((r) => r.status === 'registered' && r.study === run.study && r.arm === run.arm && r.browser === run.browser && r.first > run.first);
    const diff = successor ? outcomeDifferences(run, successor) : null;
    const commits = [...new Set(starts.map((s) => (s.commit ? s.commit.slice(0, 7) + (s.dirty ? '+dirty' : '') : 'none')))];
    const loads = sessions.map((s) => `${s.event} ${s.at.slice(11, 19)} ${s.load.map((l) => l.toFixed(2)).join('/')}`);
    return {
      file: run.file,
      run_id: run.run_id,
      study: run.study,
      arm: run.arm,
      browser: run.browser,
      status: run.status,
      rows: run.rows.length,
      first_row_at: iso(run.first),
      last_row_end_at: iso(run.last),
      ledger_seqs: run.heads.map((h) => (h < 0 ? '?' : String(h))).join(','),
      sessions: starts.length || null,
      sessions_inferred: starts.length ? null : run.heads.length,
      commits: starts.length ? commits.join(',') : 'not recorded (before data/runs.jsonl)',
      code_changed_between_sessions: starts.length ? commits.length > 1 : null,
      load: loads.join('; ') || null,
      exits: sessions.filter((s) => s.event === 'end').map((s) => s.exit).join(',') || null,
      reason: reason?.reason ?? null,
      successor: successor?.run_id ?? null,
      shared_outcomes: diff?.shared ?? null,
      outcome_differences_n: diff?.n ?? null,
      outcome_differences: diff?.list || null,
    };
  });

  // ── overlaps: any two runs whose rows interleave in time ──
  const overlaps: TableRow[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const a = runs[i]!;
      const b = runs[j]!;
      const from = Math.max(a.first, b.first);
      const to = Math.min(a.last, b.last);
      if (to <= from) continue;
      overlaps.push({
        run_a: a.run_id, run_b: b.run_id, status_a: a.status, status_b: b.status,
        overlap_from: iso(from), overlap_to: iso(to), overlap_s: Math.round((to - from) / 1000),
        rows_a_in_overlap: a.rows.filter((r) => { const t = Date.parse(r.started_at); return t >= from && t <= to; }).length,
        rows_b_in_overlap: b.rows.filter((r) => { const t = Date.parse(r.started_at); return t >= from && t <= to; }).length,
      });
    }
  }

  // ── gaps: per registered arm, what the record cannot show ──
  const arms = [...new Set(runs.filter((r) => r.status === 'registered').map((r) => `${r.study}\t${r.arm}\t${r.browser}`))].sort();
  const gaps: TableRow[] = arms.map((key) => {
    const [study, arm, browser] = key.split('\t') as [string, string, string];
    const mine = runs.filter((r) => r.study === study && r.arm === arm && r.browser === browser);
    const registered = mine.filter((r) => r.status === 'registered');
    const earlier = mine.filter((r) => r.status !== 'registered');
    const logged = registered.filter((r) => sessionsOf(log, r).length > 0);
    const firstRegistered = Math.min(...registered.map((r) => r.first));
    const loggedBefore = log.some((s) => s.event === 'start' && Date.parse(s.at) < firstRegistered);
    return {
      study, arm, browser,
      registered_runs: registered.length,
      earlier_attempts_kept: earlier.length,
      runs_with_session_log: logged.length,
      attempts_lost_possible: !loggedBefore,
      resumed_under_later_freeze: registered.filter((r) => r.heads.length > 1).map((r) => `${r.run_id} (ledger entries ${r.heads.join(',')}; the commit of each session is not recorded)`).join('; ') || null,
    };
  });

  // the hold of State in the table the version-1 arms ran with (proxy/faults/layers-v1.json)
  const heldWrites = heldWriteDeviations(runs, layerTable('v1').layers.state!.parameters.forward_after_ms!.values);

  return { deviations_amendments: amendments, deviations_runs: runRows, deviations_overlaps: overlaps, deviations_gaps: gaps, deviations_held_writes: heldWrites };
}
