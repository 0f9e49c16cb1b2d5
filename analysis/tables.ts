// Every table the reanalysis writes to analysis/out: which query makes it, which columns identify a
// row (keys), which it counts (compared exactly between SQL and the recount), which it measures
// (means, medians: compared to a relative tolerance), and which statistics follow from the counts.
//
//   data/raw ──▶ queries/<name>.sql (DuckDB) ──┐
//            └─▶ recount.ts (TypeScript) ──────┴─▶ compare.ts ──▶ + statistics ──▶ out/<name>.json|csv
import { wilson, mcnemarExact } from '../core/stats.ts';

export type Cell = string | number | boolean | null;
export type TableRow = Record<string, Cell>;

export interface RateSpec { name: string; k: string; n: string }
export interface PairSpec { b: string; c: string }

export interface TableDef {
  name: string;
  title: string;
  /** where the paper's reader finds what made this table */
  query: string;
  /** 'sql': a query in analysis/queries, recounted in TypeScript; 'ts': computed in TypeScript only from the rows;
   *  'record': computed from the record around the rows (ledger, preregs, data/excluded, data/runs.jsonl) */
  source: 'sql' | 'ts' | 'record';
  keys: string[];
  /** integers and exact values (strings, booleans) that must agree exactly */
  counts: string[];
  /** floating-point summaries that must agree to a relative 1e-9 */
  measures: string[];
  /** proportions with Wilson 95% intervals: adds <name>_rate, <name>_low, <name>_high */
  rates: RateSpec[];
  /** exact two-sided McNemar on discordant pairs: adds p_mcnemar */
  mcnemar?: PairSpec;
}

const q = (name: string) => `analysis/queries/${name}.sql`;

function sqlTable(def: Omit<TableDef, 'query' | 'source' | 'measures' | 'rates'> & Partial<Pick<TableDef, 'measures' | 'rates'>>): TableDef {
  return { query: q(def.name), source: 'sql', measures: [], rates: [], ...def };
}

const asVtsFc = (n = 'n'): RateSpec[] => [
  { name: 'as', k: 'as_n', n },
  { name: 'vts', k: 'vts_n', n },
  { name: 'fc', k: 'fc_n', n },
];
/** A query that pairs outcomes through the pair_counts macro (both, only a, only b, neither), with exact McNemar on the discordant pairs. */
const pairedTable = (name: string, keys: string[], title: string) =>
  sqlTable({ name, title, keys, counts: ['pairs', 'both_n', 'a_only_n', 'b_only_n', 'neither_n'], mcnemar: { b: 'a_only_n', c: 'b_only_n' } });
/** Arm B's counts (trials, cases, truth, accepts, errors) and its two rates */
const productionColumns = {
  counts: ['n', 'cases', 'successes', 'failures', 'accept_n', 'false_accept_n', 'false_reject_n'],
  rates: [
    { name: 'accept', k: 'accept_n', n: 'n' },
    { name: 'false_accept', k: 'false_accept_n', n: 'failures' },
  ],
};

export const tables: TableDef[] = [
  sqlTable({
    name: 'data_inventory',
    title: 'Registered data: runs, files and rows per study, arm and browser',
    keys: ['study', 'arm', 'browser'],
    counts: ['browser_versions', 'runs', 'files', 'rows', 'error_rows', 'smoke_rows'],
  }),
  sqlTable({
    name: 'layers_overall',
    title: 'Table I. Overall cross-template results (arm main)',
    keys: ['browser', 'policy'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n'],
    measures: ['mean_actions', 'mean_retries', 'mean_latency_ms'],
    rates: asVtsFc(),
  }),
  sqlTable({
    name: 'layers_by_layer',
    title: 'Table II. Layer-specific results (arm main; template "all" = the three templates together)',
    keys: ['browser', 'template', 'policy', 'layer'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n'],
    rates: asVtsFc(),
  }),
  sqlTable({
    name: 'layers_by_template',
    title: 'Table III. Cross-template replication (arm main)',
    keys: ['browser', 'template', 'policy'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n'],
    rates: asVtsFc(),
  }),
  pairedTable('layers_paired', ['browser', 'template', 'policy_a', 'policy_b'],
    'Table III (paired controls). VTS discordance between policies on the same conditions (arm main)'),
  sqlTable({
    name: 'layers_horizon',
    title: 'Table IV. Scoring-horizon sensitivity: State versus Verification (arm horizon)',
    keys: ['browser', 'layer', 'horizon_ms'],
    counts: ['n', 'as_n', 'vts_n'],
    rates: [{ name: 'vts', k: 'vts_n', n: 'n' }],
  }),
  sqlTable({
    name: 'layers_pilot',
    title: 'Table V. Planning pilot: ordinary versus reliability-oriented prompt (arm pilot)',
    keys: ['browser', 'model', 'prompt', 'layer'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n'],
    measures: ['mean_actions', 'mean_latency_ms', 'mean_steps', 'mean_planning_ms', 'mean_tokens'],
    rates: asVtsFc(),
  }),
  pairedTable('layers_pilot_paired', ['browser', 'model', 'prompt_a', 'prompt_b'],
    'Table V (paired). The same pilot conditions under both prompts (arm pilot)'),
  {
    name: 'layers_pilot_excluded',
    title: 'Table V (excluded answers). Pilot answers that gave no plan, per model and prompt: not JSON, not a valid plan, or another failure (a re-ask is an answer of its own)',
    query: 'analysis/pilot-excluded.ts',
    source: 'record',
    keys: ['model', 'prompt'],
    counts: ['conditions_n', 'plans_n', 'excluded_conditions_n', 'excluded_answers_n', 'not_json_n', 'not_plan_n', 'other_n', 'at_answer_limit_n'],
    measures: [],
    rates: [{ name: 'excluded', k: 'excluded_conditions_n', n: 'conditions_n' }],
  },
  pairedTable('layers_engines', ['policy', 'browser_a', 'browser_b'],
    'Cross-engine replication of the layers study: Chromium versus Firefox (arm main)'),
  sqlTable({
    name: 'layers_timing',
    title: 'Timing-sensitive outcomes (rows the prereg declares timing-sensitive)',
    keys: ['arm', 'browser', 'policy', 'layer'],
    counts: ['n', 'timing_sensitive_n', 'timing_sensitive_vts_n'],
    measures: ['min_abs_margin_ms'],
  }),
  sqlTable({
    name: 'layers_state_successes',
    title: 'State conditions passed by a policy that does not re-read the saved state, by name (amendment 5: slow returns)',
    keys: ['arm', 'browser', 'policy', 'condition_id'],
    counts: ['severity', 'timing_sensitive'],
    measures: ['elapsed_ms', 'timing_margin_ms'],
  }),
  sqlTable({
    name: 'agent_by_layer',
    title: 'Outside agents: claimed done, AS, VTS and false completion (claimed done, not VTS) per fault layer (arm agent; layer "all" = every layer); saved: the server received a save; claimed unsaved: claimed done with no save received',
    keys: ['browser', 'agent', 'agent_sha256', 'layer'],
    counts: ['n', 'claimed_n', 'as_n', 'vts_n', 'fc_n', 'error_n', 'actions_reported_n', 'saved_n', 'claimed_unsaved_n'],
    measures: ['mean_actions', 'mean_latency_ms', 'median_latency_ms'],
    rates: [{ name: 'claimed', k: 'claimed_n', n: 'n' }, ...asVtsFc()],
  }),
  sqlTable({
    name: 'agent_paired',
    title: 'Outside agents against each reference policy: VTS on the same conditions (arm agent paired with arm main)',
    keys: ['browser', 'agent', 'agent_sha256', 'policy'],
    counts: ['pairs', 'both_n', 'agent_only_n', 'policy_only_n', 'neither_n'],
    mcnemar: { b: 'agent_only_n', c: 'policy_only_n' },
  }),
  sqlTable({
    name: 'agent_real_apps',
    title: 'Outside agents on the real applications: claimed done, AS, VTS and false completion (claimed done, not VTS) per application and layer (arm agent, the real-applications conditions); wrote: a write of the family reached the proxy',
    keys: ['browser', 'agent', 'agent_sha256', 'app', 'layer'],
    counts: ['n', 'claimed_n', 'as_n', 'vts_n', 'fc_n', 'error_n', 'wrote_n'],
    measures: ['median_latency_ms'],
    rates: [{ name: 'claimed', k: 'claimed_n', n: 'n' }, ...asVtsFc()],
  }),
  sqlTable({
    name: 'layers_verified',
    title: 'The verifier in the layers study: the selector-only and semantic-recovery policies wrapped by it (arm verified) beside the plain policies (arm main), per fault layer; claimed done: a plain policy\'s apparent success, a wrapped policy\'s closed save',
    keys: ['browser', 'arm', 'policy', 'layer'],
    counts: ['n', 'claimed_n', 'as_n', 'vts_n', 'fc_n', 'error_n'],
    measures: ['mean_actions', 'mean_latency_ms'],
    rates: [{ name: 'claimed', k: 'claimed_n', n: 'n' }, ...asVtsFc()],
  }),
  pairedTable('layers_verified_paired', ['browser', 'outcome', 'policy_a', 'policy_b'],
    'Each wrapped policy against the plain policy it wraps on the same conditions: VTS and false completion (arm verified paired with arm main)'),
  sqlTable({
    name: 'layers_claims',
    title: 'Every reference policy\'s claim on the main arm\'s conditions (arm claims): per policy and fault layer, AS, VTS, false completion by the page (fc, the seed\'s) and by the claim (claim_fc: said done, the store lacks the state), claimed done and false abandonment (fa: did not say done, the store has the state)',
    keys: ['browser', 'policy', 'layer'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n', 'claimed_n', 'claim_fc_n', 'fa_n', 'error_n'],
    measures: ['mean_actions', 'mean_latency_ms'],
    rates: [...asVtsFc(), { name: 'claimed', k: 'claimed_n', n: 'n' }, { name: 'claim_fc', k: 'claim_fc_n', n: 'n' }, { name: 'fa', k: 'fa_n', n: 'n' }],
  }),
  pairedTable('layers_claims_vs_main', ['browser', 'outcome', 'policy'],
    'The claims arm against arm main, unit by unit (the same condition, policy and browser run twice): VTS, AS and FC by the page in both runs, only the claims arm\'s (a), only the main arm\'s (b), neither: the run-to-run spread'),
  sqlTable({
    name: 'layers_real_apps',
    title: 'The five fault layers on real applications (arm real-apps): per application, task family, reference policy and layer; family "all" = every family the fault proxy faulted',
    keys: ['browser', 'app', 'family', 'policy', 'layer'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n', 'timing_sensitive_n', 'error_n'],
    measures: ['mean_actions', 'mean_latency_ms'],
    rates: asVtsFc(),
  }),
  pairedTable('layers_real_apps_paired', ['browser', 'app', 'outcome', 'policy_a', 'policy_b'],
    'The real applications, paired controls: each two reference policies on the same conditions, VTS and false completion (arm real-apps)'),
  sqlTable({
    name: 'layers_real_apps_vs_small',
    title: 'The real applications beside the three small apps: per reference policy and fault layer (arm real-apps, the proxy\'s faults, beside arm main)',
    keys: ['browser', 'policy', 'layer'],
    counts: ['small_n', 'small_as_n', 'small_vts_n', 'small_fc_n', 'real_n', 'real_as_n', 'real_vts_n', 'real_fc_n'],
    rates: [
      { name: 'small_vts', k: 'small_vts_n', n: 'small_n' },
      { name: 'small_fc', k: 'small_fc_n', n: 'small_n' },
      { name: 'real_vts', k: 'real_vts_n', n: 'real_n' },
      { name: 'real_fc', k: 'real_fc_n', n: 'real_n' },
    ],
  }),
  sqlTable({
    name: 'layers_real_apps_v2',
    title: 'The five fault layers on real applications, version 2 (the seed\'s Verification; the policies\' claims): per application, task family, reference policy and layer; FC by the page (the seed\'s) and by the claim (claim_fc), false abandonment (fa)',
    keys: ['browser', 'app', 'family', 'policy', 'layer'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n', 'claimed_n', 'claim_fc_n', 'fa_n', 'timing_sensitive_n', 'error_n'],
    measures: ['mean_actions', 'mean_latency_ms'],
    rates: [...asVtsFc(), { name: 'claimed', k: 'claimed_n', n: 'n' }, { name: 'claim_fc', k: 'claim_fc_n', n: 'n' }, { name: 'fa', k: 'fa_n', n: 'n' }],
  }),
  pairedTable('layers_real_apps_v2_paired', ['browser', 'app', 'outcome', 'policy_a', 'policy_b'],
    'The real applications, version 2, paired controls: each two reference policies on the same conditions, VTS and false completion by the page (fc) and by the claim (claim_fc)'),
  sqlTable({
    name: 'layers_real_apps_v2_vs_small',
    title: 'The real applications, version 2 (the seed\'s Verification), beside the three small apps: per reference policy and fault layer (arm real-apps version 2, the proxy\'s faults, beside arm main)',
    keys: ['browser', 'policy', 'layer'],
    counts: ['small_n', 'small_as_n', 'small_vts_n', 'small_fc_n', 'real_n', 'real_as_n', 'real_vts_n', 'real_fc_n'],
    rates: [
      { name: 'small_vts', k: 'small_vts_n', n: 'small_n' },
      { name: 'small_fc', k: 'small_fc_n', n: 'small_n' },
      { name: 'real_vts', k: 'real_vts_n', n: 'real_n' },
      { name: 'real_fc', k: 'real_fc_n', n: 'real_n' },
    ],
  }),
  sqlTable({
    name: 'layers_transport',
    title: 'Transport faults and compound conditions behind the fault proxy (arm transport): per kind of app, condition, transport severity and policy; FA: false abandonment (done, ended as not done); twice: the store counted more than one write to the target',
    keys: ['browser', 'apps', 'condition', 'severity', 'policy'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n', 'fa_n', 'twice_n', 'timing_sensitive_n', 'error_n'],
    rates: [...asVtsFc(), { name: 'fa', k: 'fa_n', n: 'n' }, { name: 'twice', k: 'twice_n', n: 'n' }],
  }),
  sqlTable({
    name: 'layers_transport_paired',
    title: 'Transport faults against their controls (arm transport): VTS of each condition with a transport fault beside its control\'s (the same condition without it), same browser and policy; a = the control, b = the faulted condition',
    keys: ['browser', 'apps', 'condition', 'severity', 'policy'],
    counts: ['pairs', 'both_n', 'a_only_n', 'b_only_n', 'neither_n'],
    mcnemar: { b: 'a_only_n', c: 'b_only_n' },
  }),
  sqlTable({
    name: 'layers_transport_v2',
    title: 'Transport faults and compound conditions, version 2 of the arm (every policy\'s claim kept; the seed\'s Verification in the pairs): per kind of app, condition, transport severity and policy; FC by the page (fc) and by the claim (claim_fc); FA: false abandonment; twice: the store counted more than one write to the target',
    keys: ['browser', 'apps', 'condition', 'severity', 'policy'],
    counts: ['n', 'as_n', 'vts_n', 'fc_n', 'claimed_n', 'claim_fc_n', 'fa_n', 'twice_n', 'timing_sensitive_n', 'error_n'],
    rates: [...asVtsFc(), { name: 'claimed', k: 'claimed_n', n: 'n' }, { name: 'claim_fc', k: 'claim_fc_n', n: 'n' }, { name: 'fa', k: 'fa_n', n: 'n' }, { name: 'twice', k: 'twice_n', n: 'n' }],
  }),
  sqlTable({
    name: 'layers_transport_v2_paired',
    title: 'Transport faults against their controls, version 2 of the arm: VTS of each condition with a transport fault beside its control\'s, same browser and policy; a = the control, b = the faulted condition',
    keys: ['browser', 'apps', 'condition', 'severity', 'policy'],
    counts: ['pairs', 'both_n', 'a_only_n', 'b_only_n', 'neither_n'],
    mcnemar: { b: 'a_only_n', c: 'b_only_n' },
  }),
  sqlTable({
    name: 'evidence_confusion',
    title: 'Evidence policies: false accepts among failures and false rejects among successes',
    keys: ['arm', 'browser', 'policy'],
    counts: ['n', 'successes', 'failures', 'true_accept_n', 'false_reject_n', 'false_accept_n', 'true_reject_n'],
    rates: [
      { name: 'false_accept', k: 'false_accept_n', n: 'failures' },
      { name: 'false_reject', k: 'false_reject_n', n: 'successes' },
    ],
  }),
  sqlTable({
    name: 'evidence_by_scenario',
    title: 'Evidence policies: accepts per scenario family and truth',
    keys: ['arm', 'browser', 'scenario', 'truth', 'policy'],
    counts: ['n', 'accept_n'],
    rates: [{ name: 'accept', k: 'accept_n', n: 'n' }],
  }),
  sqlTable({
    name: 'evidence_production',
    title: 'Production arm (arm-b): accepts per case kind and policy against the frozen direct-HTTP labels',
    keys: ['browser', 'kind', 'policy'],
    ...productionColumns,
  }),
  sqlTable({
    name: 'evidence_production_samples',
    title: 'Production arm (arm-b) per sample: accepts and false accepts per case kind and policy, each sample and browser apart',
    keys: ['sample', 'browser', 'kind', 'policy'],
    ...productionColumns,
  }),
  pairedTable('evidence_production_engines', ['sample', 'policy', 'browser_a', 'browser_b'],
    'Production arm (arm-b) in two engines: Firefox and Chromium on the same trials, per sample and policy'),
  sqlTable({
    name: 'evidence_arm_b_contracts',
    title: 'Arm B contracts (exploratory): the verifier under action-specific contracts beside network-completion and body-stable, per sample, browser and case kind',
    keys: ['sample', 'browser', 'kind', 'policy'],
    ...productionColumns,
    rates: [...productionColumns.rates, { name: 'false_reject', k: 'false_reject_n', n: 'successes' }],
    measures: ['median_latency_ms', 'p95_latency_ms'],
  }),
  sqlTable({
    name: 'evidence_arm_b_contracts_stages',
    title: 'Arm B contracts (exploratory): how the records ended, by the stage a rejected one ended from',
    keys: ['sample', 'browser', 'kind', 'contract_kind', 'state', 'ended_from'],
    counts: ['n', 'successes'],
  }),
  sqlTable({
    name: 'evidence_production_waits',
    title: 'Production arm (arm-b): rendering after domcontentloaded and settlement waits (ms)',
    keys: ['sample', 'browser'],
    counts: ['n', 'dcl_n', 'title_changed_n', 'body_changed_n', 'title_settled_n', 'body_stable_n'],
    measures: ['median_dcl_ms', 'median_title_wait_ms', 'median_body_wait_ms'],
  }),
  sqlTable({
    name: 'evidence_latency',
    title: 'Evidence policies: verdict latency (ms from the action dispatch)',
    keys: ['arm', 'browser', 'policy'],
    counts: ['n'],
    measures: ['mean_ms', 'median_ms', 'min_ms', 'max_ms'],
  }),
  sqlTable({
    name: 'evidence_latency_values',
    title: 'Evidence policies: every recorded verdict latency',
    keys: ['arm', 'browser', 'policy', 'condition_id', 'rep'],
    counts: ['truth', 'accept'],
    measures: ['latency_ms'],
  }),
  sqlTable({
    name: 'evidence_latency_gaps',
    title: 'Evidence policies: how much later one decides than another on the same trial (gap = b - a, ms)',
    keys: ['arm', 'browser', 'policy_a', 'policy_b'],
    counts: ['n'],
    measures: ['mean_gap_ms', 'median_gap_ms'],
  }),
  pairedTable('evidence_paired', ['arm', 'browser', 'policy_a', 'policy_b'],
    'Evidence policies compared on the same trials: who was right where the other was wrong'),
  pairedTable('evidence_engines', ['policy', 'side_a', 'side_b'],
    'Cross-engine replication of the controlled matrix: Chromium (controlled) versus Firefox (arm A)'),
  countedTable('evidence_verdict_check', 'Evidence verdicts recomputed from the recorded events and compared with the recorded verdicts',
    'analysis/verdicts.ts', 'ts', ['arm', 'browser', 'policy'], ['rows', 'rechecked', 'accept_mismatch_n', 'latency_mismatch_n', 'status']),
  countedTable('evidence_production_exploratory', 'Production arm (arm-b): what the exploratory settlement rules would accept among the semantic HTTP-200 negatives',
    'analysis/production-exploratory.ts', 'ts', ['sample', 'browser'], ['trials', 'semantic_negative_n', 'title_settled_semantic_accept_n', 'body_stable_semantic_accept_n']),
  {
    name: 'evidence_verifier_replay',
    title: "The verifier replayed: its contract for the controlled app against the committed-state policy's recorded verdict, on every recorded timeline",
    query: 'analysis/verifier-replay.ts',
    source: 'ts',
    keys: ['arm', 'browser'],
    counts: ['rows', 'policy_rows', 'closed_n', 'failed_n', 'ambiguous_n', 'policy_accept_n', 'agree_n', 'disagree_n', 'closed_latency_equal_n'],
    measures: [],
    rates: [{ name: 'agree', k: 'agree_n', n: 'policy_rows' }],
  },
  {
    name: 'evaluator_audit',
    title: 'Other evaluators against the store (issue 51): every registered real-application trace that kept its files, re-scored from them; per evaluator, false accepts (it credits the task, the store lacks the state) and false rejects (it does not, the store has it)',
    query: 'analysis/evaluator-audit.ts',
    source: 'record',
    keys: ['browser', 'arm', 'arm_version', 'app', 'fault', 'evaluator'],
    counts: ['n', 'stored_n', 'not_stored_n', 'accept_n', 'false_accept_n', 'false_reject_n'],
    measures: [],
    rates: [{ name: 'false_accept', k: 'false_accept_n', n: 'not_stored_n' }, { name: 'false_reject', k: 'false_reject_n', n: 'stored_n' }],
  },
  // one row a trace: drawn into no figure and printed in no table of the paper; the report recounts evaluator_audit from it
  countedTable('evaluator_audit_traces', 'Other evaluators against the store, trace by trace: each re-scored trace (run file and line), the fault it ran under, whether the store held the state, and each evaluator\'s verdict (null: it cannot say for that trace); evaluator_audit counts these rows',
    'analysis/evaluator-audit.ts', 'record', ['file', 'line'],
    ['browser', 'arm', 'arm_version', 'app', 'fault', 'condition_id', 'policy', 'stored', 'store', 'page', 'claim', 'fixed-wait', 'network', 'webarena-verified']),
  recordTable('deviations_amendments', 'Deviations: every preregistration and amendment, when it was frozen, and what the record shows preceded it',
    ['prereg'], ['id', 'study', 'arm', 'relation', 'ledger_seq', 'frozen_at', 'record_trigger', 'trigger_runs', 'declared_trigger', 'registered_rows_before', 'registered_runs_before', 'changes']),
  recordTable('deviations_runs', 'Deviations: every run file, its sessions, and how it differs from its successor',
    ['file'], ['run_id', 'study', 'arm', 'browser', 'status', 'rows', 'first_row_at', 'last_row_end_at', 'ledger_seqs', 'sessions', 'sessions_inferred', 'commits', 'code_changed_between_sessions', 'load', 'exits', 'reason', 'successor', 'shared_outcomes', 'outcome_differences_n', 'outcome_differences']),
  recordTable('deviations_overlaps', 'Deviations: runs that ran at the same time',
    ['run_a', 'run_b'], ['status_a', 'status_b', 'overlap_from', 'overlap_to', 'overlap_s', 'rows_a_in_overlap', 'rows_b_in_overlap']),
  recordTable('deviations_gaps', 'Deviations: what the record of each registered arm cannot show',
    ['study', 'arm', 'browser'], ['registered_runs', 'earlier_attempts_kept', 'runs_with_session_log', 'attempts_lost_possible', 'resumed_under_later_freeze']),
  recordTable('deviations_held_writes', 'Deviations: real-application rows that a late held write of the row before them (same application) may have reached, before the proxy\'s reset waited for it (issue 47)',
    ['file', 'condition_id', 'policy'], ['after_condition', 'after_policy', 'held_write', 'vts', 'vts_without_own_write']),
];

/** A table computed in TypeScript (no SQL to compare with): keys and exact values only. */
function countedTable(name: string, title: string, query: string, source: 'ts' | 'record', keys: string[], counts: string[]): TableDef {
  return { name, title, query, source, keys, counts, measures: [], rates: [] };
}
function recordTable(name: string, title: string, keys: string[], counts: string[]): TableDef {
  return countedTable(name, title, 'analysis/deviations.ts', 'record', keys, counts);
}

export function tableDef(name: string): TableDef {
  const def = tables.find((t) => t.name === name);
  if (!def) throw new Error(`no table ${name} in analysis/tables.ts`);
  return def;
}

/** Columns in output order: keys, counts, measures, then the statistics derived from the counts. */
export function columnsOf(def: TableDef): string[] {
  const derived = def.rates.flatMap((r) => [`${r.name}_rate`, `${r.name}_low`, `${r.name}_high`]);
  return [...def.keys, ...def.counts, ...def.measures, ...derived, ...(def.mcnemar ? ['p_mcnemar'] : [])];
}

/** Rounding that makes the output bytes stable: ms and means to 3 decimals, proportions to 4,
 *  p-values to 4 significant digits (they can be 1e-40). */
function round(value: number, decimals: number): number {
  const r = Number(value.toFixed(decimals));
  return Object.is(r, -0) ? 0 : r;
}
function significant(value: number, digits: number): number {
  return value === 0 ? 0 : Number(value.toPrecision(digits));
}

/** One output row: the columns in order, measures rounded, statistics computed from the counts. */
export function finishRow(def: TableDef, row: TableRow): TableRow {
  const out: TableRow = {};
  for (const c of [...def.keys, ...def.counts]) out[c] = typeof row[c] === 'number' ? round(row[c] as number, 3) : (row[c] ?? null);
  for (const c of def.measures) out[c] = typeof row[c] === 'number' ? round(row[c] as number, 3) : null;
  for (const r of def.rates) {
    const k = row[r.k] as number;
    const n = row[r.n] as number;
    const { low, high } = wilson(k, n);
    out[`${r.name}_rate`] = n > 0 ? round(k / n, 4) : null;
    out[`${r.name}_low`] = n > 0 ? round(low, 4) : null;
    out[`${r.name}_high`] = n > 0 ? round(high, 4) : null;
  }
  if (def.mcnemar) out.p_mcnemar = significant(mcnemarExact(row[def.mcnemar.b] as number, row[def.mcnemar.c] as number), 4);
  return out;
}
