// Our database-labelled traces in AgentRewardBench's trajectory format (agent-reward-bench 0.1.2 on
// PyPI, McGill-NLP), so that anyone can score their LLM judge against the store's truth.
//
//   <run>.jsonl row ─┬─ condition (data/tasks/…) ........ goal           (the instruction)
//                    ├─ trace.har entries, by _t ......... steps          (one request each: page loads and the write)
//                    ├─ row.real_app.success_shown ....... a step         (the page showed the task's success notice)
//                    ├─ row.claim (version 2, agents) .... the last step  (send_msg_to_user: the agent's final answer)
//                    ├─ row.apparent_success ............. summary_info.cum_reward (the page's verdict as the "functional" reward)
//                    └─ store.json boundary read ......... the label      (annotations.csv trajectory_success; labels.jsonl)
//
// What AgentRewardBench's judges read of a trajectory (agent_reward_bench.judge.create_chat_messages_from_trajectory):
// `goal`; each step's `url`, `action`, `reasoning`; the last step's `screenshot_path` (use_screenshot)
// and `axtree`/`axtree_pruned` (use_axtree). Our traces record neither screenshots nor accessibility
// trees, so those are null and the trajectory says so: judge them with use_screenshot=False and
// use_axtree=False. The label stays out of the trajectory file (a judge reads that file): it is in
// annotations.csv, in AgentRewardBench's own columns, and in labels.jsonl with our other fields.
import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../core/hash.ts';
import type { LayersRealAppsTask, LayersRow, LayersTask, StoreReads, TraceRow } from '../../core/contracts.ts';
import { validate } from '../../core/validate.ts';
import type { Har, HarEntry } from '../../proxy/src/har.ts';

type Row = LayersRow & TraceRow;
type Attachment = NonNullable<TraceRow['attachments']>[number];

/** AgentRewardBench's name for the benchmark a trajectory comes from (its folders and task ids carry it) */
export const BENCHMARK = 'rstackbench';
export const EXPORT_SCHEMA = 'trajectory-export/1';
export const LABEL_SCHEMA = 'trajectory-export-label/1';
export const NOT_RECORDED = 'no screenshot and no accessibility tree were recorded: each step is one request of the fault proxy\'s HAR (the page loads and the write, with their times), the page\'s success notice where the trace saw it, and the agent\'s final claim';

/** the columns of agent_reward_bench/data/annotations.csv, in its order */
export const ANNOTATION_COLUMNS = ['annotator_name', 'benchmark', 'task_id', 'model_name', 'exp_name', 'trajectory_success', 'trajectory_side_effect', 'trajectory_optimality', 'trajectory_looping'] as const;
export type Annotation = Record<(typeof ANNOTATION_COLUMNS)[number], string>;

/** One step as AgentRewardBench's Step.to_dict writes it, with where ours came from. */
export interface ArbStep {
  num: number;
  reasoning: null;
  action: string;
  screenshot_path: null;
  url: string;
  open_pages_urls: string[];
  focused_element: null;
  last_action_error: string;
  stats: Record<string, never>;
  axtree: null;
  axtree_obj: null;
  axtree_pruned: null;
  chat_messages: [];
  bounding_boxes: Record<string, never>;
  extra_element_properties: Record<string, never>;
  /** ours: what the step is (a request of the HAR, the page's notice, the agent's claim) and when, in ms after the trace's start */
  rstackbench_step: { source: 'har' | 'page-notice' | 'claim'; t_ms: number | null; write?: true; status?: number };
}

/** A trajectory as AgentRewardBench's Trajectory.to_dict plus its steps (scripts/convert_trajectories_to_json.py) writes it. */
export interface ArbTrajectory {
  benchmark: string;
  agent: string;
  model: string;
  valid: true;
  experiment: string;
  trajectory_dir: string;
  goal: string;
  seed: null;
  model_args: Record<string, never>;
  flags: Record<string, never>;
  summary_info: { cum_reward: number; n_steps: number };
  package_version: string;
  steps: ArbStep[];
  /** ours (schemas/trajectory-export.schema.json): where the trace comes from and its condition; never its label */
  rstackbench: ExportFields;
}

export interface ExportFields {
  schema: typeof EXPORT_SCHEMA;
  run_file: string;
  line: number;
  run_id: string;
  arm: string;
  arm_version: number;
  browser: string;
  condition_id: string;
  policy: string;
  agent: string | null;
  app: string | null;
  family: string;
  variant: string | null;
  layer: string;
  severity: number;
  fault_source: string | null;
  transport_fault: string | null;
  apparent_success: boolean;
  claim: { done: boolean; message?: string } | null;
  observations: { screenshots: false; axtree: false; note: string };
  attachments: { name: string; sha256: string }[];
}

/** Our label and fields of one trajectory (labels.jsonl). */
export interface ExportLabel {
  schema: typeof LABEL_SCHEMA;
  task_id: string;
  trajectory: string;
  db_success: boolean;
  store: { postcondition: string; target: string; boundary_value: string | null; boundary_at_ms: number };
  apparent_success: boolean;
  false_completion: boolean;
  claim_false_completion: boolean | null;
  claim: { done: boolean; message?: string } | null;
  arm: string;
  browser: string;
  condition_id: string;
  policy: string;
  layer: string;
  severity: number;
  fault_source: string | null;
  transport_fault: string | null;
}

/** The condition a row was made from: what the exporter needs of it. */
export interface ConditionFacts { instruction: string; notice: string | null }

export interface Exported { path: string; trajectory: ArbTrajectory; annotation: Annotation; label: ExportLabel }

const filesDir = (runFile: string) => runFile.replace(/\.jsonl$/, '.files');

/** An attachment's bytes, checked against the row's sha256 (a changed file is not exported). */
export function readAttachment(runFile: string, a: Attachment): Buffer {
  const file = path.join(filesDir(runFile), a.path);
  if (!fs.existsSync(file)) throw new Error(`${a.name} is missing (${file})`);
  const content = fs.readFileSync(file);
  if (sha256(content) !== a.sha256) throw new Error(`${a.name}'s sha256 differs from the row's`);
  return content;
}

const ms = (t: number) => `${Math.round(t)} ms`;
/** a path a reader can place: the request's path and query, the origin left to the url field */
const shortUrl = (url: string) => { const u = new URL(url); return `${u.pathname}${u.search}`; };

function harStep(entry: HarEntry): Omit<ArbStep, 'num'> {
  const error = entry.response._error;
  const answer = error ? `no answer (${error})` : `${entry.response.status}${entry.response.redirectURL ? ` → ${entry.response.redirectURL}` : ''}`;
  return {
    ...emptyObservation(entry.request.url),
    action: `${entry.request.method} ${shortUrl(entry.request.url)} → ${answer} at ${ms(entry._t)}${entry._write ? ' (the task\'s write, as the proxy matched it)' : ''}`,
    last_action_error: error ?? (entry.response.status >= 400 ? `HTTP ${entry.response.status}` : ''),
    rstackbench_step: { source: 'har', t_ms: entry._t, status: entry.response.status, ...(entry._write ? { write: true as const } : {}) },
  };
}

const emptyObservation = (url: string) => ({
  reasoning: null, screenshot_path: null, url, open_pages_urls: [url], focused_element: null,
  stats: {}, axtree: null, axtree_obj: null, axtree_pruned: null, chat_messages: [] as [], bounding_boxes: {}, extra_element_properties: {},
});

/** The steps: the HAR's requests by time, the page's notice where it showed, the claim last. */
export function stepsOf(har: Har | null, row: Row, facts: ConditionFacts): ArbStep[] {
  const entries = [...(har?.log.entries ?? [])].sort((a, b) => a._t - b._t);
  const steps: (Omit<ArbStep, 'num'> & { at: number })[] = entries.map((e) => ({ ...harStep(e), at: e._t }));
  const shown = row.real_app?.success_shown;
  if (shown !== null && shown !== undefined && facts.notice) {
    const page = entries.filter((e) => e._t <= shown && e.request.method === 'GET').at(-1)?.request.url ?? entries[0]?.request.url ?? '';
    steps.push({ ...emptyObservation(page), at: shown, action: `the page showed the success notice ${JSON.stringify(facts.notice)} at ${ms(shown)}`, last_action_error: '', rstackbench_step: { source: 'page-notice', t_ms: shown } });
  }
  steps.sort((a, b) => a.at - b.at);
  if (row.claim) {
    const last = steps.at(-1)?.url ?? '';
    const message = row.claim.message ?? (row.claim.done ? 'done' : 'not done');
    // BrowserGym's way of answering the user, which AgentRewardBench's trajectories end with
    steps.push({ ...emptyObservation(last), at: Infinity, action: `send_msg_to_user(${JSON.stringify(message)}) [claim: done=${row.claim.done}]`, last_action_error: '', rstackbench_step: { source: 'claim', t_ms: row.real_app?.returned ?? null } });
  }
  return steps.map(({ at: _at, ...s }, i) => ({ num: i, ...s }));
}

/** AgentRewardBench's "agent" of a trace: the outside agent's name, or the reference policy's. */
const agentOf = (row: Row) => (row.agent && typeof row.agent === 'object' && 'name' in row.agent ? String((row.agent as { name: string }).name) : row.policy);

/**
 * One trace as a trajectory, its AgentRewardBench annotation and our label. The task id is unique
 * across runs (run id and condition), the folder AgentRewardBench's layout: cleaned/<benchmark>/<agent>/<experiment>/<task_id>.json.
 */
export function exportTrace(input: { runFile: string; relRunFile: string; line: number; row: Row; facts: ConditionFacts }): Exported {
  const { runFile, relRunFile, line, row, facts } = input;
  const byName = new Map((row.attachments ?? []).map((a) => [a.name, a]));
  const storeAttachment = byName.get('store.json');
  if (!storeAttachment) throw new Error('no store.json among its attachments: no label');
  const store = validate<StoreReads>('store-reads', JSON.parse(readAttachment(runFile, storeAttachment).toString('utf8')), { file: `${runFile} ${storeAttachment.path}` });
  const harAttachment = byName.get('trace.har');
  const har = harAttachment ? (JSON.parse(readAttachment(runFile, harAttachment).toString('utf8')) as Har) : null;

  const agent = agentOf(row);
  const taskId = `${BENCHMARK}.${row.run_id}.${row.condition_id}`;
  const experiment = `${agent}_on_${BENCHMARK}.${row.run_id}`;
  const rel = path.join('cleaned', BENCHMARK, agent, experiment, `${taskId}.json`);
  const dbSuccess = store.boundary.value === store.target;
  const browser = typeof row.browser === 'object' && row.browser ? row.browser.name : String(row.browser);
  const transportFault = row.transport?.fault ?? null;
  const steps = stepsOf(har, row, facts);
  const trajectory: ArbTrajectory = {
    benchmark: BENCHMARK,
    agent,
    model: agent,
    valid: true,
    experiment,
    trajectory_dir: path.join(path.basename(filesDir(runFile)), storeAttachment.path.split('/')[0]!),
    goal: facts.instruction,
    seed: null,
    model_args: {},
    flags: {},
    summary_info: { cum_reward: row.apparent_success ? 1 : 0, n_steps: steps.length },
    package_version: 'rstackbench make export-trajectories (no AgentLab run)',
    steps,
    rstackbench: {
      schema: EXPORT_SCHEMA,
      run_file: relRunFile, line, run_id: row.run_id, arm: row.arm, arm_version: row.arm_version ?? 1, browser,
      condition_id: row.condition_id, policy: row.policy, agent: row.agent && typeof row.agent === 'object' ? agent : null,
      app: row.app ?? null, family: row.template, variant: row.variant ?? null, layer: row.layer, severity: row.severity,
      fault_source: row.fault_source ?? null, transport_fault: transportFault,
      apparent_success: row.apparent_success, claim: row.claim ?? null,
      observations: { screenshots: false, axtree: false, note: NOT_RECORDED },
      attachments: (row.attachments ?? []).map((a) => ({ name: a.name, sha256: a.sha256 })),
    },
  };
  const annotation: Annotation = {
    annotator_name: 'database',
    benchmark: BENCHMARK,
    task_id: taskId,
    model_name: agent,
    exp_name: experiment,
    trajectory_success: dbSuccess ? 'Successful' : 'Unsuccessful',
    // the store says nothing of these: AgentRewardBench's scorer skips "Unsure" (is_unsure)
    trajectory_side_effect: 'Unsure',
    trajectory_optimality: 'Unsure',
    trajectory_looping: 'Unsure',
  };
  const label: ExportLabel = {
    schema: LABEL_SCHEMA,
    task_id: taskId,
    trajectory: rel,
    db_success: dbSuccess,
    store: { postcondition: store.postcondition, target: store.target, boundary_value: store.boundary.value, boundary_at_ms: store.boundary.at_ms },
    apparent_success: row.apparent_success,
    false_completion: row.apparent_success && !dbSuccess,
    claim_false_completion: row.claim ? row.claim.done && !dbSuccess : null,
    claim: row.claim ?? null,
    arm: row.arm, browser, condition_id: row.condition_id, policy: row.policy,
    layer: row.layer, severity: row.severity, fault_source: row.fault_source ?? null, transport_fault: transportFault,
  };
  return { path: rel, trajectory, annotation, label };
}

/** A CSV field as Python's csv module reads it back. */
const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
export const annotationsCsv = (rows: Annotation[]) =>
  [ANNOTATION_COLUMNS.join(','), ...rows.map((r) => ANNOTATION_COLUMNS.map((c) => csvField(r[c])).join(','))].join('\r\n') + '\r\n';

/** The instruction (and the success notice the page watch looked for) of a condition of any arm that keeps files. */
export const factsOfRealApps = (t: LayersRealAppsTask): ConditionFacts => ({ instruction: t.instruction, notice: t.notice?.text ?? null });
export const factsOfSmall = (t: LayersTask): ConditionFacts => ({ instruction: t.instruction, notice: null });
