// Your run beside the registered ones (issue 50 item 6): `make report RUN=runs/<verb>-<name>` puts a
// run of your own agent (or app), which writes under runs/ and never into the record, into the report
// as one more section, beside the registered reference policies and agents on the same conditions;
// and every such run ends with one line that says how it did.
//
//   runs/<folder>/data/{raw,excluded}/layers/**.jsonl ─▶ your rows ─┐
//   data/raw (registered) rows on the same condition ids ──────────┴─▶ section "your_run": per who
//       (yours, each registered policy or agent, per browser) and layer: claimed done, AS, VTS, FC,
//       false abandonment (k/n, Wilson), and the median time and tokens a task
//
// FC is each row's own (an agent's: claimed done and not VTS; a reference policy's: AS and not VTS);
// false abandonment: it did not end taking the task as done, and the store had the state.
import fs from 'node:fs';
import path from 'node:path';
import { wilson } from '../core/stats.ts';
import { RStackError } from '../core/errors.ts';
import type { Row } from './record.ts';
import type { Cell, ScoreRow, Section, Trace } from './scorecards.ts';

/** Every trace row of a run folder (its data/raw and data/excluded, as a run writes them), by file. */
export function readRunFolder(dir: string): { file: string; rows: Row[] }[] {
  const data = path.join(dir, 'data');
  if (!fs.existsSync(data)) throw new RStackError(`RUN=${dir}: no data/ folder there: a run of your own writes runs/<verb>-<name>/data/… (its first and last lines say where)`, { exitCode: 2 });
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !e.name.endsWith('.files')) walk(p);
      else if (e.isFile() && e.name.endsWith('.jsonl') && e.name !== 'REASONS.jsonl' && !/\.failed-attempts(\.\d+)?\.jsonl$/.test(e.name)) files.push(p);
    }
  };
  for (const sub of ['raw', 'excluded']) if (fs.existsSync(path.join(data, sub))) walk(path.join(data, sub));
  const out = files.sort().map((file) => ({
    file,
    rows: fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => {
      try {
        const r = JSON.parse(l) as Row;
        return r.schema === 'trace/1' && r.study === 'layers' ? [r] : [];
      } catch {
        return [];
      }
    }),
  })).filter((f) => f.rows.length);
  if (!out.length) throw new RStackError(`RUN=${dir}: no layers trace rows under ${path.join(dir, 'data')}`, { exitCode: 2 });
  return out;
}

const endedDone = (r: Row): boolean => (typeof r.ended_done === 'boolean' ? r.ended_done : r.claim ? r.claim.done === true : r.apparent_success === true);
const tokensOf = (r: Row): number | null => {
  const u = r.claim?.usage;
  return u && (typeof u.input_tokens === 'number' || typeof u.output_tokens === 'number') ? (u.input_tokens ?? 0) + (u.output_tokens ?? 0) : null;
};
const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const MEASURES: { name: string; label: string; hit: (r: Row) => boolean }[] = [
  { name: 'claimed', label: 'claimed done', hit: (r) => endedDone(r) },
  { name: 'as', label: 'AS', hit: (r) => r.apparent_success === true },
  { name: 'vts', label: 'VTS', hit: (r) => r.vts === true },
  { name: 'fc', label: 'FC', hit: (r) => r.false_completion === true },
  { name: 'fa', label: 'false abandonment', hit: (r) => !endedDone(r) && r.vts === true },
];

/** Who made a row, as the section names it. */
const whoOf = (r: Row, yours: boolean) => `${yours ? 'yours' : r.arm}: ${r.agent?.name ?? r.policy} (${r.browser?.name})`;

/**
 * The section: your traces and the registered ones on the same condition ids (reference policies of
 * the arms main and real-apps, and registered agents), per who and layer ('all' too).
 * listOf turns trace ids into the report's lists (a cell's link to the traces it counts).
 */
export function yourRunSection(yours: Trace[], registered: Trace[], listOf: (ids: number[]) => number, source: string): Section {
  const conditions = new Set(yours.map((t) => t.row.condition_id));
  const beside = registered.filter((t) => t.row.study === 'layers' && conditions.has(t.row.condition_id) && ['main', 'real-apps', 'agent'].includes(t.row.arm));
  const groups = new Map<string, { key: { who: string; layer: string }; traces: Trace[]; order: number }>();
  for (const [mine, list] of [[true, yours], [false, beside]] as const) {
    for (const t of list) {
      for (const layer of [String(t.row.layer), 'all']) {
        const key = { who: whoOf(t.row, mine), layer };
        const id = `${key.who}\u0000${layer}`;
        let g = groups.get(id);
        if (!g) groups.set(id, (g = { key, traces: [], order: mine ? 0 : 1 }));
        g.traces.push(t);
      }
    }
  }
  const layerOrder = ['all', 'baseline', 'access', 'perception', 'action', 'state', 'verification'];
  const rows: ScoreRow[] = [...groups.values()]
    .sort((a, b) => a.order - b.order || (a.key.who < b.key.who ? -1 : a.key.who > b.key.who ? 1 : 0) || layerOrder.indexOf(a.key.layer) - layerOrder.indexOf(b.key.layer))
    .map(({ key, traces }) => {
      const cells: Record<string, Cell> = {};
      for (const m of MEASURES) {
        const hits = traces.filter((t) => m.hit(t.row));
        const n = traces.length;
        const w = n ? wilson(hits.length, n) : null;
        cells[m.name] = { k: hits.length, n, rate: n ? hits.length / n : null, low: w?.low ?? null, high: w?.high ?? null, hits: listOf(hits.map((t) => t.id)), all: listOf(traces.map((t) => t.id)) };
      }
      const seconds = median(traces.map((t) => t.row.elapsed_ms).filter((x): x is number => typeof x === 'number')) ;
      const tokens = median(traces.map((t) => tokensOf(t.row)).filter((x): x is number => x !== null));
      return { key, cells, extra: { 'median s a task': seconds === null ? '-' : (seconds / 1000).toFixed(1), 'median tokens a task': tokens === null ? 'not reported' : Math.round(tokens) } };
    });
  return {
    id: 'your_run',
    title: 'Your run beside the registered ones, on the same conditions (per who and fault layer; layer "all" = every layer)',
    note: `Your rows come from ${source} (not part of the record); the others are the registered rows of the same condition ids. FC is each row's own: an agent's, claimed done and not VTS; a reference policy's, AS and not VTS. False abandonment: not ended done, and the store had the state.`,
    source,
    keyCols: ['who', 'layer'],
    measures: MEASURES.map(({ name, label }) => ({ name, label })),
    rows,
  };
}

/** One line at the end of a run of your own: how it did, and how to see it beside the registered. */
export function runOneLine(rows: readonly Row[], folder: string): string {
  const n = rows.length;
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  const seconds = median(rows.map((r) => r.elapsed_ms).filter((x): x is number => typeof x === 'number'));
  const tokens = median(rows.map(tokensOf).filter((x): x is number => x !== null));
  return `your run: ${n} traces; claimed done ${count(endedDone)}/${n}, VTS ${count((r) => r.vts === true)}/${n}, false completions ${count((r) => r.false_completion === true)}/${n}, ` +
    `false abandonments ${count((r) => !endedDone(r) && r.vts === true)}/${n}, errors ${count((r) => r.error != null)}/${n}; ` +
    `median ${seconds === null ? '-' : (seconds / 1000).toFixed(1)} s a task, ${tokens === null ? 'tokens not reported' : `${Math.round(tokens)} tokens a task`}. ` +
    `Beside the registered: make report RUN=${folder}`;
}
