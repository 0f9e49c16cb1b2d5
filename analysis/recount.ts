// The independent recount: every SQL table computed again in TypeScript, straight from the rows as
// core/jsonl.ts read and validated them. It shares nothing with the SQL but the column names, so a
// mistake in either shows up as a disagreement (compare.ts). Where a field restates a definition
// (false_completion = apparent_success and not vts), the recount uses the definition and the SQL
// the recorded field, so a row that breaks the definition cannot pass unnoticed.
import path from 'node:path';
import { mean, median, quantile } from '../core/stats.ts';
import { fcRuleOf, verdictOf } from '../core/verdict.ts';
import { type EvidenceRow, type LayersRow, type Located } from './rows.ts';
import type { TableRow } from './tables.ts';
import { bodyStability, samples, titleSettlement, type TimelineEvent } from '../core/evidence/production.ts';

export interface RecountInput { layers: Located<LayersRow>[]; evidence: Located<EvidenceRow>[] }

/** Groups items by the listed key values, keeping the values of each group's key. */
type Key = string | number | null;
function groupBy<T, const K extends readonly Key[]>(items: T[], key: (item: T) => K): { key: K; items: T[] }[] {
  const groups = new Map<string, { key: K; items: T[] }>();
  for (const item of items) {
    const k = key(item);
    const id = JSON.stringify(k);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { key: k, items: [] }));
    g.items.push(item);
  }
  return [...groups.values()];
}

const count = <T>(items: T[], pred: (item: T) => boolean) => items.reduce((s, x) => s + (pred(x) ? 1 : 0), 0);
/**
 * FC = AS and not VTS (prereg/layers.md; the pilot's prereg keeps it for its plans, whose claim is
 * recorded beside it); for an outside agent's row (arm agent) and a policy wrapped by the verifier
 * (arm verified, prereg/layers-verified.md; and in arm transport): claimed done and not VTS.
 */
/** A row's false completion by its arm's registered rule (core/verdict.ts): the claim's where the row keeps one and the arm counts by it, else the page's. */
const claimRule = (r: LayersRow) => fcRuleOf(r) === 'claim-if-kept' && r.claim !== undefined;
const fc = (r: LayersRow) => verdictOf({ apparentSuccess: r.apparent_success, vts: r.vts, ...('claim' in r ? { claim: r.claim } : {}), rule: fcRuleOf(r) }).false_completion;

function outcomeCounts(rows: LayersRow[]) {
  return {
    n: rows.length,
    as_n: count(rows, (r) => r.apparent_success),
    vts_n: count(rows, (r) => r.vts),
    fc_n: count(rows, fc),
  };
}

interface Pair { a: boolean; b: boolean }
function pairCounts(pairs: Pair[]) {
  return {
    pairs: pairs.length,
    both_n: count(pairs, (p) => p.a && p.b),
    a_only_n: count(pairs, (p) => p.a && !p.b),
    b_only_n: count(pairs, (p) => p.b && !p.a),
    neither_n: count(pairs, (p) => !p.a && !p.b),
  };
}

/** Arm B's counts of a group of verdicts: trials, cases, truth, accepts and the two kinds of error. */
function productionCounts(items: FlatVerdict[]) {
  return {
    n: items.length,
    cases: new Set(items.flatMap((v) => (v.case_id === null ? [] : [v.case_id]))).size,
    successes: count(items, (v) => v.truth === 'success'),
    failures: count(items, (v) => v.truth === 'failure'),
    accept_n: count(items, (v) => v.accept),
    false_accept_n: count(items, (v) => v.truth === 'failure' && v.accept),
    false_reject_n: count(items, (v) => v.truth === 'success' && !v.accept),
  };
}

/**
 * Arm B's record is the sample its prereg names (prereg/evidence-arm-b.md: data/tasks/arm-b/manifest.json);
 * another production sample is its own, in the per-sample tables only, never pooled with it.
 */
const ARM_B_RECORD_SAMPLE = 'wordpress-local';
/** An Arm B row's sample: the manifest id, the first part of its condition id (<sample>/<case>/<rep>). */
const sampleOf = (r: { condition_id: string }) => r.condition_id.split('/')[0]!;

/** One verdict of one trial: the unit the evidence tables count. */
interface FlatVerdict {
  arm: string; browser: string; condition_id: string; rep: number; scenario: string; truth: string;
  case_id: string | null; policy: string; accept: boolean; latency_ms: number | null; correct: boolean;
}

function flatVerdicts(rows: EvidenceRow[]): FlatVerdict[] {
  return rows.flatMap((r) =>
    Object.entries(r.verdicts).map(([policy, v]) => ({
      arm: r.arm, browser: r.browser.name, condition_id: r.condition_id, rep: r.rep, scenario: r.scenario, truth: r.truth,
      case_id: r.case_id ?? null, policy, accept: v.accept, latency_ms: v.latency_ms, correct: v.accept === (r.truth === 'success'),
    })),
  );
}

/** Every ordered pair (x, y) with the same join key for which keepPair holds: a join, by buckets. */
function pairsOf<T>(items: T[], joinKey: (item: T) => string, keepPair: (x: T, y: T) => boolean): [T, T][] {
  const buckets = new Map<string, T[]>();
  for (const item of items) {
    const k = joinKey(item);
    const b = buckets.get(k);
    if (b) b.push(item);
    else buckets.set(k, [item]);
  }
  const out: [T, T][] = [];
  for (const bucket of buckets.values()) for (const x of bucket) for (const y of bucket) if (keepPair(x, y)) out.push([x, y]);
  return out;
}

/** Computes every SQL table in TypeScript. Row order does not matter: compare.ts matches rows by key. */
export function recount(input: RecountInput): Record<string, TableRow[]> {
  const layers = input.layers.map((l) => l.row);
  // the study's record; Arm B's is the sample its prereg names (analysis/queries/load_evidence.sql)
  const evidenceAll = input.evidence.map((l) => l.row);
  // the contracts arm is exploratory, never the study's record (its own tables below)
  const evidence = evidenceAll.filter((r) => (r.arm !== 'arm-b' && r.arm !== 'arm-b-contracts') || (r.arm === 'arm-b' && sampleOf(r) === ARM_B_RECORD_SAMPLE));
  const main = layers.filter((r) => r.arm === 'main');
  const out: Record<string, TableRow[]> = {};

  const located = [
    ...input.layers.map((l) => ({ study: 'layers', row: l.row as LayersRow | EvidenceRow, file: l.file })),
    ...input.evidence.map((l) => ({ study: 'evidence', row: l.row as LayersRow | EvidenceRow, file: l.file })),
  ];
  out.data_inventory = groupBy(located, (l) => [l.study, l.row.arm, l.row.browser.name]).map(({ key: [study, arm, browser], items }) => ({
    study, arm, browser,
    browser_versions: [...new Set(items.map((l) => l.row.browser.version))].sort().join(', '),
    runs: new Set(items.map((l) => l.row.run_id)).size,
    files: new Set(items.map((l) => path.resolve(l.file))).size,
    rows: items.length,
    error_rows: count(items, (l) => l.row.error !== undefined && l.row.error !== null),
    smoke_rows: count(items, (l) => l.row.smoke === true),
  }));

  out.layers_overall = groupBy(main, (r) => [r.browser.name, r.policy]).map(({ key: [browser, policy], items }) => ({
    browser, policy, ...outcomeCounts(items),
    // the schema gives every row but an outside agent's its actions and retries
    mean_actions: mean(items.map((r) => r.actions!)),
    mean_retries: mean(items.map((r) => r.retries!)),
    mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
  }));

  out.layers_by_layer = [
    ...groupBy(main, (r) => [r.browser.name, r.template, r.policy, r.layer]),
    ...groupBy(main, (r) => [r.browser.name, 'all', r.policy, r.layer]),
  ].map(({ key: [browser, template, policy, layer], items }) => ({ browser, template, policy, layer, ...outcomeCounts(items) }));

  out.layers_by_template = groupBy(main, (r) => [r.browser.name, r.template, r.policy]).map(({ key: [browser, template, policy], items }) => ({
    browser, template, policy, ...outcomeCounts(items),
  }));

  const policyPairs = pairsOf(
    main,
    (r) => JSON.stringify([r.browser.name, r.template, r.condition_id]),
    (x, y) => x.policy < y.policy,
  );
  out.layers_paired = [
    ...groupBy(policyPairs, ([x, y]) => [x.browser.name, x.template, x.policy, y.policy]),
    ...groupBy(policyPairs, ([x, y]) => [x.browser.name, 'all', x.policy, y.policy]),
  ].map(({ key: [browser, template, policy_a, policy_b], items }) => ({
    browser, template, policy_a, policy_b, ...pairCounts(items.map(([x, y]) => ({ a: x.vts, b: y.vts }))),
  }));

  out.layers_horizon = groupBy(layers.filter((r) => r.arm === 'horizon'), (r) => [r.browser.name, r.layer, r.horizon_ms]).map(
    ({ key: [browser, layer, horizon_ms], items }) => {
      const c = outcomeCounts(items);
      return { browser, layer, horizon_ms, n: c.n, as_n: c.as_n, vts_n: c.vts_n };
    },
  );

  const pilot = layers.filter((r) => r.arm === 'pilot');
  out.layers_pilot = [
    ...groupBy(pilot, (r) => [r.browser.name, r.model ?? null, r.prompt ?? null, r.layer]),
    ...groupBy(pilot, (r) => [r.browser.name, r.model ?? null, r.prompt ?? null, 'all']),
  ].map(({ key: [browser, model, prompt, layer], items }) => ({
    browser, model, prompt, layer, ...outcomeCounts(items),
    mean_actions: mean(items.map((r) => r.actions!)),
    mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
    // like SQL's avg: over the rows that have the value
    mean_steps: mean(items.flatMap((r) => (typeof r.steps === 'number' ? [r.steps] : []))),
    mean_planning_ms: mean(items.flatMap((r) => (typeof r.planning_ms === 'number' ? [r.planning_ms] : []))),
    mean_tokens: mean(items.flatMap((r) => (typeof r.tokens === 'number' ? [r.tokens] : []))),
  }));

  const promptPairs = pairsOf(
    pilot,
    (r) => JSON.stringify([r.browser.name, r.model ?? null, r.condition_id]),
    (x, y) => x.prompt === 'ordinary' && y.prompt === 'reliability',
  );
  out.layers_pilot_paired = groupBy(promptPairs, ([x]) => [x.browser.name, x.model ?? null]).map(({ key: [browser, model], items }) => ({
    browser, model, prompt_a: 'ordinary', prompt_b: 'reliability', ...pairCounts(items.map(([x, y]) => ({ a: x.vts, b: y.vts }))),
  }));

  const enginePairs = pairsOf(
    main,
    (r) => JSON.stringify([r.condition_id, r.policy]),
    (x, y) => x.browser.name === 'chromium' && y.browser.name === 'firefox',
  );
  out.layers_engines = groupBy(enginePairs, ([x]) => [x.policy]).map(({ key: [policy], items }) => ({
    policy, browser_a: 'chromium', browser_b: 'firefox', ...pairCounts(items.map(([x, y]) => ({ a: x.vts, b: y.vts }))),
  }));

  // outside agents (arm agent): false completion by its definition, claimed done and not VTS
  // the small apps' conditions (an agent on the real applications: agent_real_apps below)
  const agents = layers.filter((r) => r.arm === 'agent' && r.app === undefined);
  const claimedDone = (r: LayersRow) => r.claim?.done === true;
  // the server received at least one save (of any entity); a row without recorded moments: none
  const saved = (r: LayersRow) => (r.moments?.saves.length ?? 0) > 0;
  out.agent_by_layer = [
    ...groupBy(agents, (r) => [r.browser.name, r.agent?.name ?? null, r.agent?.sha256 ?? null, 'all']),
    ...groupBy(agents, (r) => [r.browser.name, r.agent?.name ?? null, r.agent?.sha256 ?? null, r.layer]),
  ].map(({ key: [browser, agent, agent_sha256, layer], items }) => {
    const reported = items.flatMap((r) => (typeof r.actions === 'number' ? [r.actions] : []));
    return {
      browser, agent, agent_sha256, layer,
      n: items.length,
      claimed_n: count(items, claimedDone),
      as_n: count(items, (r) => r.apparent_success),
      vts_n: count(items, (r) => r.vts),
      fc_n: count(items, fc),
      error_n: count(items, (r) => typeof r.error === 'string'),
      actions_reported_n: reported.length,
      saved_n: count(items, saved),
      claimed_unsaved_n: count(items, (r) => claimedDone(r) && !saved(r)),
      mean_actions: mean(reported),
      mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
      median_latency_ms: median(items.map((r) => r.elapsed_ms)),
    };
  });
  const agentPairs = agents.flatMap((a) => main.filter((m) => m.browser.name === a.browser.name && m.condition_id === a.condition_id).map((m) => [a, m] as const));
  out.agent_paired = groupBy(agentPairs, ([a, m]) => [a.browser.name, a.agent?.name ?? null, a.agent?.sha256 ?? null, m.policy]).map(
    ({ key: [browser, agent, agent_sha256, policy], items }) => {
      const p = pairCounts(items.map(([a, m]) => ({ a: a.vts, b: m.vts })));
      return { browser, agent, agent_sha256, policy, pairs: p.pairs, both_n: p.both_n, agent_only_n: p.a_only_n, policy_only_n: p.b_only_n, neither_n: p.neither_n };
    },
  );

  // the verified arm beside the plain policies it wraps, in the browsers it ran in
  const verified = layers.filter((r) => r.arm === 'verified');
  const verifiedBrowsers = new Set(verified.map((r) => r.browser.name));
  const wrapped = [...verified, ...main.filter((r) => verifiedBrowsers.has(r.browser.name) && (r.policy === 'selector-only' || r.policy === 'semantic-recovery'))];
  out.layers_verified = [
    ...groupBy(wrapped, (r) => [r.browser.name, r.arm, r.policy, 'all']),
    ...groupBy(wrapped, (r) => [r.browser.name, r.arm, r.policy, r.layer]),
  ].map(({ key: [browser, arm, policy, layer], items }) => {
    const reported = items.flatMap((r) => (typeof r.actions === 'number' ? [r.actions] : []));
    return {
      browser, arm, policy, layer,
      n: items.length,
      claimed_n: count(items, (r) => (r.arm === 'verified' ? claimedDone(r) : r.apparent_success)),
      as_n: count(items, (r) => r.apparent_success),
      vts_n: count(items, (r) => r.vts),
      fc_n: count(items, fc),
      error_n: count(items, (r) => typeof r.error === 'string'),
      mean_actions: mean(reported),
      mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
    };
  });
  const wrappedPairs = verified.flatMap((v) => main.filter((m) => m.browser.name === v.browser.name && m.condition_id === v.condition_id && v.policy === `verified-${m.policy}`).map((m) => [v, m] as const));
  out.layers_verified_paired = (['vts', 'fc'] as const).flatMap((outcome) =>
    groupBy(wrappedPairs, ([v, m]) => [v.browser.name, v.policy, m.policy]).map(({ key: [browser, policy_a, policy_b], items }) => ({
      browser, outcome, policy_a, policy_b,
      ...pairCounts(items.map(([v, m]) => (outcome === 'vts' ? { a: v.vts, b: m.vts } : { a: fc(v), b: fc(m) }))),
    })));

  // the claims arm: the main arm's units with every reference policy's claim kept; FC by the page
  // (the row's false_completion) and by the claim, claimed done and false abandonment by their definitions
  const claimsRows = layers.filter((r) => r.arm === 'claims');
  const pageFc = (r: LayersRow) => r.apparent_success && !r.vts;
  out.layers_claims = [
    ...groupBy(claimsRows, (r) => [r.browser.name, r.policy, 'all']),
    ...groupBy(claimsRows, (r) => [r.browser.name, r.policy, r.layer]),
  ].map(({ key: [browser, policy, layer], items }) => ({
    browser, policy, layer,
    n: items.length,
    as_n: count(items, (r) => r.apparent_success),
    vts_n: count(items, (r) => r.vts),
    fc_n: count(items, pageFc),
    claimed_n: count(items, (r) => r.claim?.done === true),
    claim_fc_n: count(items, (r) => r.claim?.done === true && !r.vts),
    fa_n: count(items, (r) => r.claim?.done !== true && r.vts),
    error_n: count(items, (r) => typeof r.error === 'string'),
    mean_actions: mean(items.flatMap((r) => (typeof r.actions === 'number' ? [r.actions] : []))),
    mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
  }));
  const claimsPairs = claimsRows.flatMap((c) => main.filter((m) => m.browser.name === c.browser.name && m.condition_id === c.condition_id && m.policy === c.policy).map((m) => [c, m] as const));
  out.layers_claims_vs_main = (['vts', 'as', 'fc'] as const).flatMap((outcome) =>
    groupBy(claimsPairs, ([c]) => [c.browser.name, c.policy]).map(({ key: [browser, policy], items }) => ({
      browser, outcome, policy,
      ...pairCounts(items.map(([c, m]) => (outcome === 'vts' ? { a: c.vts, b: m.vts } : outcome === 'as' ? { a: c.apparent_success, b: m.apparent_success } : { a: pageFc(c), b: pageFc(m) }))),
    })));

  // the real-applications arm: per family, and every family the proxy faulted together ('all');
  // version 1's tables take its rows (no arm_version), version 2's its own (claims, the seed's
  // Verification): the same three tables, version 2 with the claim's counts and outcome beside
  const realAll = layers.filter((r) => r.arm === 'real-apps');
  const smallCells = new Map(groupBy(main, (r) => [r.browser.name, r.policy, r.layer]).map(({ key, items }) => [JSON.stringify(key), outcomeCounts(items)]));
  const realTables = (real: LayersRow[], claims: boolean) => {
    const proxied = real.filter((r) => r.fault_source !== 'app');
    const cells = (items: LayersRow[]) => ({
      ...outcomeCounts(items),
      ...(claims ? {
        claimed_n: count(items, (r) => r.claim?.done === true),
        claim_fc_n: count(items, (r) => r.claim_false_completion === true),
        fa_n: count(items, (r) => r.false_abandonment === true),
      } : {}),
      timing_sensitive_n: count(items, (r) => r.timing_sensitive === true),
      error_n: count(items, (r) => typeof r.error === 'string'),
      mean_actions: mean(items.flatMap((r) => (typeof r.actions === 'number' ? [r.actions] : []))),
      mean_latency_ms: mean(items.map((r) => r.elapsed_ms)),
    });
    const byFamily = [
      ...groupBy(real, (r) => [r.browser.name, r.app ?? null, r.template, r.policy, r.layer]),
      ...groupBy(real, (r) => [r.browser.name, r.app ?? null, r.template, r.policy, 'all']),
      ...groupBy(proxied, (r) => [r.browser.name, r.app ?? null, 'all', r.policy, r.layer]),
      ...groupBy(proxied, (r) => [r.browser.name, r.app ?? null, 'all', r.policy, 'all']),
    ].map(({ key: [browser, app, family, policy, layer], items }) => ({ browser, app, family, policy, layer, ...cells(items) }));
    const pairs = pairsOf(real, (r) => JSON.stringify([r.browser.name, r.condition_id]), (x, y) => x.policy < y.policy);
    const outcomes = { vts: (r: LayersRow) => r.vts, fc, ...(claims ? { claim_fc: (r: LayersRow) => r.claim_false_completion === true } : {}) };
    const paired = Object.entries(outcomes).flatMap(([outcome, of]) => [
      ...groupBy(pairs, ([x, y]) => [x.browser.name, x.app ?? null, x.policy, y.policy]),
      ...groupBy(pairs, ([x, y]) => [x.browser.name, 'all', x.policy, y.policy]),
    ].map(({ key: [browser, app, policy_a, policy_b], items }) => ({
      browser, app, outcome, policy_a, policy_b, ...pairCounts(items.map(([x, y]) => ({ a: of(x), b: of(y) }))),
    })));
    const vsSmall = groupBy(proxied, (r) => [r.browser.name, r.policy, r.layer]).flatMap(({ key: [browser, policy, layer], items }) => {
      const s = smallCells.get(JSON.stringify([browser, policy, layer]));
      if (!s) return [];
      const r = outcomeCounts(items);
      return [{
        browser, policy, layer,
        small_n: s.n, small_as_n: s.as_n, small_vts_n: s.vts_n, small_fc_n: s.fc_n,
        real_n: r.n, real_as_n: r.as_n, real_vts_n: r.vts_n, real_fc_n: r.fc_n,
      }];
    });
    return { byFamily, paired, vsSmall };
  };
  const v1 = realTables(realAll.filter((r) => r.arm_version === undefined || r.arm_version === null), false);
  out.layers_real_apps = v1.byFamily;
  out.layers_real_apps_paired = v1.paired;
  out.layers_real_apps_vs_small = v1.vsSmall;
  const v2 = realTables(realAll.filter((r) => (r.arm_version ?? 0) >= 2), true);
  out.layers_real_apps_v2 = v2.byFamily;
  out.layers_real_apps_v2_paired = v2.paired;
  out.layers_real_apps_v2_vs_small = v2.vsSmall;

  // the transport arm: per kind of app, condition, transport severity and policy; false abandonment by
  // its definition (not ended done, VTS), writes made more than once by the store's count; version 2
  // (its amendment 2) in tables of its own, with the claims beside
  const transportAll = layers.filter((r) => r.arm === 'transport');
  const appsOf = (r: LayersRow) => (r.app === undefined ? 'small' : 'real');
  const conditionOf = (r: LayersRow) => (r.transport === undefined && r.also === undefined ? `control ${r.layer}` : r.also !== undefined ? `${r.layer}+${r.also.layer}` : r.layer !== 'baseline' ? `${r.layer}+${r.transport!.fault}` : r.transport!.fault);
  const transportTables = (transport: LayersRow[], claims: boolean) => {
    const byCondition = new Map(transport.map((r) => [JSON.stringify([r.browser.name, r.policy, r.condition_id]), r]));
    const controlPairs = transport.filter((r) => r.transport !== undefined && r.control !== undefined).flatMap((f) => {
      const c = byCondition.get(JSON.stringify([f.browser.name, f.policy, f.control]));
      return c ? [[c, f] as const] : [];
    });
    return {
      table: groupBy(transport, (r) => [r.browser.name, appsOf(r), conditionOf(r), r.transport?.severity ?? 0, r.policy]).map(({ key: [browser, apps, condition, severity, policy], items }) => ({
        browser, apps, condition, severity, policy,
        ...outcomeCounts(items),
        ...(claims ? { claimed_n: count(items, (r) => r.claim?.done === true), claim_fc_n: count(items, (r) => r.claim_false_completion === true) } : {}),
        fa_n: count(items, (r) => r.ended_done === false && r.vts),
        twice_n: count(items, (r) => (r.store_writes ?? 0) > 1),
        timing_sensitive_n: count(items, (r) => r.timing_sensitive === true),
        error_n: count(items, (r) => typeof r.error === 'string'),
      })),
      paired: [
        ...groupBy(controlPairs, ([, f]) => [f.browser.name, appsOf(f), conditionOf(f), String(f.transport!.severity), f.policy]),
        ...groupBy(controlPairs, ([, f]) => [f.browser.name, appsOf(f), conditionOf(f), 'all', f.policy]),
        ...groupBy(controlPairs, ([, f]) => [f.browser.name, appsOf(f), conditionOf(f), 'all', 'all']),
      ].map(({ key: [browser, apps, condition, severity, policy], items }) => ({
        browser, apps, condition, severity, policy,
        ...pairCounts(items.map(([c, f]) => ({ a: c.vts, b: f.vts }))),
      })),
    };
  };
  const transportV1 = transportTables(transportAll.filter((r) => (r.arm_version ?? 1) === 1), false);
  out.layers_transport = transportV1.table;
  out.layers_transport_paired = transportV1.paired;
  const transportV2 = transportTables(transportAll.filter((r) => (r.arm_version ?? 1) >= 2), true);
  out.layers_transport_v2 = transportV2.table;
  out.layers_transport_v2_paired = transportV2.paired;

  // outside agents on the real applications: per application (and both, 'all') and layer
  const realAgents = layers.filter((r) => r.arm === 'agent' && r.app !== undefined);
  const agentKey = (r: LayersRow) => [r.browser.name, r.agent?.name ?? null, r.agent?.sha256 ?? null] as const;
  out.agent_real_apps = [
    ...groupBy(realAgents, (r) => [...agentKey(r), r.app ?? null, r.layer]),
    ...groupBy(realAgents, (r) => [...agentKey(r), r.app ?? null, 'all']),
    ...groupBy(realAgents, (r) => [...agentKey(r), 'all', r.layer]),
    ...groupBy(realAgents, (r) => [...agentKey(r), 'all', 'all']),
  ].map(({ key: [browser, agent, agent_sha256, app, layer], items }) => ({
    browser, agent, agent_sha256, app, layer,
    n: items.length,
    claimed_n: count(items, (r) => r.claim?.done === true),
    as_n: count(items, (r) => r.apparent_success),
    vts_n: count(items, (r) => r.vts),
    fc_n: count(items, fc),
    error_n: count(items, (r) => typeof r.error === 'string'),
    wrote_n: count(items, (r) => (r.real_app?.writes.length ?? 0) > 0),
    median_latency_ms: median(items.map((r) => r.elapsed_ms)),
  }));

  out.layers_timing = groupBy(layers, (r) => [r.arm, r.browser.name, r.policy, r.layer])
    .filter(({ items }) => items.some((r) => r.timing_sensitive === true))
    .map(({ key: [arm, browser, policy, layer], items }) => {
      const sensitive = items.filter((r) => r.timing_sensitive === true);
      const margins = sensitive.flatMap((r) => (typeof r.timing_margin_ms === 'number' ? [Math.abs(r.timing_margin_ms)] : []));
      return {
        arm, browser, policy, layer, n: items.length,
        timing_sensitive_n: sensitive.length,
        timing_sensitive_vts_n: count(sensitive, (r) => r.vts),
        min_abs_margin_ms: margins.length ? Math.min(...margins) : null,
      };
    });

  // amendment 5: State successes of policies that do not re-read the saved state, one row each
  out.layers_state_successes = layers
    .filter((r) => r.arm === 'main' && r.layer === 'state' && r.vts && r.policy !== 'verification-aware')
    .map((r) => ({
      arm: r.arm, browser: r.browser.name, policy: r.policy, condition_id: r.condition_id, severity: r.severity,
      timing_sensitive: r.timing_sensitive === true, elapsed_ms: r.elapsed_ms, timing_margin_ms: r.timing_margin_ms ?? null,
    }));

  const verdicts = flatVerdicts(evidence);
  out.evidence_confusion = groupBy(verdicts, (v) => [v.arm, v.browser, v.policy]).map(({ key: [arm, browser, policy], items }) => ({
    arm, browser, policy,
    n: items.length,
    successes: count(items, (v) => v.truth === 'success'),
    failures: count(items, (v) => v.truth === 'failure'),
    true_accept_n: count(items, (v) => v.truth === 'success' && v.accept),
    false_reject_n: count(items, (v) => v.truth === 'success' && !v.accept),
    false_accept_n: count(items, (v) => v.truth === 'failure' && v.accept),
    true_reject_n: count(items, (v) => v.truth === 'failure' && !v.accept),
  }));

  out.evidence_by_scenario = groupBy(verdicts, (v) => [v.arm, v.browser, v.scenario, v.truth, v.policy]).map(
    ({ key: [arm, browser, scenario, truth, policy], items }) => ({ arm, browser, scenario, truth, policy, n: items.length, accept_n: count(items, (v) => v.accept) }),
  );

  out.evidence_production = groupBy(verdicts.filter((v) => v.arm === 'arm-b'), (v) => [v.browser, v.scenario, v.policy]).map(
    ({ key: [browser, kind, policy], items }) => ({
      browser, kind, policy,
      ...productionCounts(items),
    }),
  );

  // arm B per sample: the manifest id is the first part of the condition id (<sample>/<case>/<rep>)
  const production = flatVerdicts(evidenceAll.filter((r) => r.arm === 'arm-b')).map((v) => ({ ...v, sample: sampleOf(v) }));
  out.evidence_production_samples = [
    ...groupBy(production, (v) => [v.sample, v.browser, v.scenario, v.policy]),
    ...groupBy(production, (v) => [v.sample, v.browser, 'all', v.policy]),
  ].map(({ key: [sample, browser, kind, policy], items }) => ({
    sample, browser, kind, policy,
    ...productionCounts(items),
  }));

  // the contracts arm beside the registered Arm B policies of the same sample and browser
  const contractRows = evidenceAll.filter((r) => r.arm === 'arm-b-contracts');
  const contractVerdicts = flatVerdicts(contractRows).map((v) => ({ ...v, sample: sampleOf(v) }));
  const ran = new Set(contractVerdicts.map((v) => `${v.sample}|${v.browser}`));
  const besideContracts = [
    ...contractVerdicts,
    ...production.filter((v) => ran.has(`${v.sample}|${v.browser}`) && (v.policy === 'network-completion' || v.policy === 'body-stable')),
  ];
  out.evidence_arm_b_contracts = [
    ...groupBy(besideContracts, (v) => [v.sample, v.browser, v.scenario, v.policy]),
    ...groupBy(besideContracts, (v) => [v.sample, v.browser, 'all', v.policy]),
  ].map(({ key: [sample, browser, kind, policy], items }) => {
    const latencies = items.flatMap((v) => (v.latency_ms === null ? [] : [v.latency_ms]));
    return { sample, browser, kind, policy, ...productionCounts(items), median_latency_ms: median(latencies), p95_latency_ms: quantile(latencies, 0.95) };
  });
  out.evidence_arm_b_contracts_stages = groupBy(contractRows, (r) => {
    const record = r.evidence_record!;
    const endedFrom = record.state === 'closed' ? '-' : (record.transitions.at(-1)?.from ?? '-');
    return [sampleOf(r), r.browser.name, r.scenario, r.contract!.kind, record.state, endedFrom];
  }).map(({ key: [sample, browser, kind, contract_kind, state, ended_from], items }) => ({
    sample, browser, kind, contract_kind, state, ended_from, n: items.length, successes: count(items, (r) => r.truth === 'success'),
  }));

  const productionEngines = pairsOf(
    production,
    (v) => JSON.stringify([v.condition_id, v.rep, v.policy]),
    (x, y) => x.browser === 'firefox' && y.browser === 'chromium',
  );
  out.evidence_production_engines = groupBy(productionEngines, ([x]) => [x.sample, x.policy]).map(({ key: [sample, policy], items }) => ({
    sample, policy, browser_a: 'firefox', browser_b: 'chromium', ...pairCounts(items.map(([x, y]) => ({ a: x.correct, b: y.correct }))),
  }));

  // arm B's timelines: rendering after domcontentloaded and the settlement waits, with the
  // policies' own functions (the SQL derives the same from the events on its own)
  const productionRows = evidenceAll.filter((r) => r.arm === 'arm-b');
  out.evidence_production_waits = groupBy(productionRows, (r) => [sampleOf(r), r.browser.name]).map(({ key: [sample, browser], items }) => {
    const dcl = items.flatMap((r) => r.events.filter((e) => e.source === 'dom' && e.type === 'domcontentloaded').slice(0, 1).map((e) => e.t_ms));
    const changed = (r: EvidenceRow, kind: 'title' | 'body') => {
      const first = firstAtDcl(r.events, kind);
      return first !== undefined && first !== samples(r.events, kind).at(-1)?.value;
    };
    const titleWaits = items.flatMap((r) => { const s = titleSettlement(r.events); return s ? [s.wait_ms] : []; });
    const bodyWaits = items.flatMap((r) => { const s = bodyStability(r.events); return s ? [s.wait_ms] : []; });
    return {
      sample, browser,
      n: items.length,
      dcl_n: dcl.length,
      title_changed_n: count(items, (r) => changed(r, 'title')),
      body_changed_n: count(items, (r) => changed(r, 'body')),
      title_settled_n: titleWaits.length,
      body_stable_n: bodyWaits.length,
      median_dcl_ms: median(dcl),
      median_title_wait_ms: median(titleWaits),
      median_body_wait_ms: median(bodyWaits),
    };
  });

  out.evidence_latency = groupBy(verdicts, (v) => [v.arm, v.browser, v.policy]).map(({ key: [arm, browser, policy], items }) => {
    const values = items.flatMap((v) => (v.latency_ms === null ? [] : [v.latency_ms]));
    return {
      arm, browser, policy, n: values.length,
      mean_ms: mean(values), median_ms: median(values),
      min_ms: values.length ? Math.min(...values) : null,
      max_ms: values.length ? Math.max(...values) : null,
    };
  });

  out.evidence_latency_values = verdicts
    .filter((v) => v.latency_ms !== null)
    .map((v) => ({ arm: v.arm, browser: v.browser, policy: v.policy, condition_id: v.condition_id, rep: v.rep, truth: v.truth, accept: v.accept, latency_ms: v.latency_ms }));

  const trialPairs = pairsOf(
    verdicts,
    (v) => JSON.stringify([v.arm, v.browser, v.condition_id, v.rep]),
    (x, y) => x.policy < y.policy,
  );
  const timedPairs = trialPairs.filter(([x, y]) => x.latency_ms !== null && y.latency_ms !== null);
  out.evidence_latency_gaps = groupBy(timedPairs, ([x, y]) => [x.arm, x.browser, x.policy, y.policy]).map(({ key: [arm, browser, policy_a, policy_b], items }) => {
    const gaps = items.map(([x, y]) => y.latency_ms! - x.latency_ms!);
    return { arm, browser, policy_a, policy_b, n: gaps.length, mean_gap_ms: mean(gaps), median_gap_ms: median(gaps) };
  });

  out.evidence_paired = groupBy(trialPairs, ([x, y]) => [x.arm, x.browser, x.policy, y.policy]).map(({ key: [arm, browser, policy_a, policy_b], items }) => ({
    arm, browser, policy_a, policy_b, ...pairCounts(items.map(([x, y]) => ({ a: x.correct, b: y.correct }))),
  }));

  const engineTrials = pairsOf(
    verdicts,
    (v) => JSON.stringify([v.condition_id, v.rep, v.policy]),
    (x, y) => x.arm === 'controlled' && x.browser === 'chromium' && y.arm === 'arm-a' && y.browser === 'firefox',
  );
  out.evidence_engines = groupBy(engineTrials, ([x]) => [x.policy]).map(({ key: [policy], items }) => ({
    policy, side_a: 'controlled/chromium', side_b: 'arm-a/firefox', ...pairCounts(items.map(([x, y]) => ({ a: x.correct, b: y.correct }))),
  }));

  return out;
}

/** The first title or body sample at or after domcontentloaded, or undefined when there is none. */
function firstAtDcl(events: readonly TimelineEvent[], kind: 'title' | 'body'): string | undefined {
  const dcl = events.find((e) => e.source === 'dom' && e.type === 'domcontentloaded');
  return dcl ? samples(events, kind).find((s) => s.t_ms >= dcl.t_ms)?.value : undefined;
}

/** Checks the recount makes before anything is counted; each problem names its file and line. */
export function rowProblems(input: RecountInput, rel: (file: string) => string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const where = (l: { file: string; line: number }) => `${rel(l.file)}:${l.line}`;
  for (const l of [...input.layers, ...input.evidence]) {
    if (l.row.smoke) problems.push(`${where(l)}: a smoke row in data/raw (smoke runs belong in data/excluded/)`);
    // the unit each paired comparison relies on being unique
    const r = l.row;
    const unit = r.study === 'layers'
      // a pilot row is its model's (amendment 1: each model its own run); an agent row its agent's; a
      // real-apps row its arm version's (version 2 runs the same condition ids under another protocol)
      ? ['layers', r.arm, r.browser.name, r.condition_id, r.policy, r.arm === 'horizon' ? r.horizon_ms : '', r.prompt ?? '', r.model ?? '', r.agent?.name ?? '', r.agent?.sha256 ?? '', r.arm_version ?? '']
      : ['evidence', r.arm, r.browser.name, r.condition_id, r.rep];
    const id = JSON.stringify(unit);
    const first = seen.get(id);
    if (first) problems.push(`${where(l)}: the same trace as ${first} (${unit.filter((x) => x !== '').join(' ')}); a condition may be counted once`);
    else seen.set(id, where(l));
  }
  for (const l of input.layers) {
    if (l.row.false_completion !== fc(l.row)) {
      problems.push(claimRule(l.row)
        ? `${where(l)}: false_completion is ${l.row.false_completion} but the claim is ${JSON.stringify(l.row.claim)} and vts is ${l.row.vts} (FC = claimed done and not VTS)`
        : `${where(l)}: false_completion is ${l.row.false_completion} but apparent_success is ${l.row.apparent_success} and vts is ${l.row.vts} (FC = AS and not VTS)`);
    }
    // real-apps version 2 keeps the claim-based FC beside the page's (prereg/layers-real-apps-amendment-1.md)
    if (fcRuleOf(l.row) === 'both' && l.row.claim_false_completion !== verdictOf({ apparentSuccess: l.row.apparent_success, vts: l.row.vts, claim: l.row.claim, rule: 'both' }).claim_false_completion) {
      problems.push(`${where(l)}: claim_false_completion is ${l.row.claim_false_completion} but the claim is ${JSON.stringify(l.row.claim)} and vts is ${l.row.vts} (FC by the claim = claimed done and not VTS)`);
    }
  }
  return problems;
}

