// The selector-only and semantic-recovery policies wrapped by the verifier (issue 24, item 4; not a
// registered arm: that needs its own prereg, frozen first). Each save is declared before it runs,
// with its contract:
//   - the action: the policy's own activation of the commit control (ui.commit), identity
//     "<template>/save <key>";
//   - the request: the app's save (POST /api/save, /api/profile, /api/delete for the three apps);
//   - transport: a completed 200 is success; 204 (the server ignored the save) and any 4xx/5xx
//     are failures; anything else ambiguous;
//   - semantics: a read-back of the server-backed state (GET /api/state, what the app's summary is
//     built from), which must hold the requested value for the target; no re-read beyond it;
//   - a timeout of verifiedLimits.actionTimeoutMs from the click.
// The policy claims done only when a save closed as a success. Selector-only still acts open loop
// (one look, one save); semantic recovery verifies each activation and activates again, bounded,
// while none closed.
import { isDeepStrictEqual } from 'node:util';
import type { Locator } from 'playwright-core';
import { attach, verifyWithRetry, type ActionContract, type EvidenceRecord } from '../../../verifier/src/index.ts';
import type { Entity, Template } from '../../../core/layers.ts';
import type { Agent } from '../../agents/contract.ts';
import type { LayersTask } from '../../../core/layers.ts';
import type { PolicyContext } from './policy.ts';
import { scriptedAgent } from './agent.ts';
import { smallAppLimits as limits } from './ui.ts';

/** The app's save request, as a developer of each app declares it. */
export const saveRequests: Record<Template, { method: 'POST'; path: string }> = {
  cards: { method: 'POST', path: '/api/save' },
  profile: { method: 'POST', path: '/api/profile' },
  modal: { method: 'POST', path: '/api/delete' },
};

export const verifiedLimits = { actionTimeoutMs: 4000, maxAttempts: limits.maxAttempts };

/** The server-backed state holds the requested value for the target. */
export function stateHolds(state: unknown, target: Entity): boolean {
  return Array.isArray(state) && state.some((e) => (e as Entity)?.key === target.key && isDeepStrictEqual((e as Entity).value, target.value));
}

/** The contract of one activation of the commit control in `scope`. */
export function saveContract(ctx: PolicyContext, scope: Locator): ActionContract {
  const origin = new URL(ctx.page.url()).origin;
  return {
    id: `${ctx.task.template}/save ${ctx.task.target.key}`,
    action: () => ctx.ui.commit(ctx.actor, scope),
    request: saveRequests[ctx.task.template],
    transport: { success: [200], failure: [204, [400, 599]], networkError: 'failure' },
    semantic: {
      kind: 'read-back',
      read: async ({ request }) => (await request.get(`${origin}/api/state`)).json(),
      success: (state) => stateHolds(state, ctx.task.target),
    },
    timeoutMs: verifiedLimits.actionTimeoutMs,
  };
}

async function verifySave(ctx: PolicyContext, scope: Locator): Promise<EvidenceRecord> {
  const verifier = attach(ctx.page);
  try {
    return await verifier.verify(saveContract(ctx, scope));
  } finally {
    verifier.detach();
  }
}

export interface VerifiedPolicy {
  name: string;
  /** the records of its saves, in order; the task is done when the last one closed (or as it says, with how) */
  run(ctx: PolicyContext): Promise<EvidenceRecord[] | { records: EvidenceRecord[]; done: boolean; how: string }>;
}

export const verifiedSelectorOnly: VerifiedPolicy = {
  name: 'verified-selector-only',
  async run(ctx) {
    const first = ctx.ui.scopes(ctx.page).first();
    if (!(await ctx.actor.look(first))) return [];
    await ctx.ui.prepare(ctx.actor, first, ctx.task.target);
    return [await verifySave(ctx, first)];
  },
};

export const verifiedSemanticRecovery: VerifiedPolicy = {
  name: 'verified-semantic-recovery',
  async run(ctx) {
    const scope = ctx.ui.targetScope(ctx.page, ctx.task.target);
    if (!(await ctx.actor.visibleWithin(scope, limits.targetWaitMs))) return [];
    await ctx.ui.prepare(ctx.actor, scope, ctx.task.target);
    const records: EvidenceRecord[] = [];
    for (let attempt = 0; attempt < verifiedLimits.maxAttempts; attempt++) {
      if (attempt > 0) ctx.actor.retries++;
      const record = await verifySave(ctx, scope);
      records.push(record);
      if (record.state === 'closed') {
        ctx.actor.confirmed();
        break;
      }
    }
    return records;
  },
};

export const verifiedPolicies: Record<string, VerifiedPolicy> = Object.fromEntries([verifiedSelectorOnly, verifiedSemanticRecovery].map((p) => [p.name, p]));

/** Whether each app's save may be sent again while not known to have happened: setting a value may; a deletion may not. */
export const repeatableSaves: Record<Template, boolean> = { cards: true, profile: true, modal: false };

/**
 * Semantic recovery with the verifier's retry pattern (verifier/src/retry.ts, issue 37): after a save
 * that did not close, it reads the store (the contract's read-back) before it acts again, and stops
 * when the store already holds the value, so that a save whose answer was lost is not made twice.
 * Not in verifiedPolicies: that table is the registered verified arm's (prereg/layers-verified.md).
 */
export const verifiedCheckedRetry: VerifiedPolicy = {
  name: 'verified-checked-retry',
  async run(ctx) {
    const scope = ctx.ui.targetScope(ctx.page, ctx.task.target);
    if (!(await ctx.actor.visibleWithin(scope, limits.targetWaitMs))) return [];
    await ctx.ui.prepare(ctx.actor, scope, ctx.task.target);
    const verifier = attach(ctx.page);
    try {
      const result = await verifyWithRetry(verifier, ctx.page, { ...saveContract(ctx, scope), repeatable: repeatableSaves[ctx.task.template] }, { attempts: verifiedLimits.maxAttempts });
      ctx.actor.retries += result.records.length - 1;
      if (result.state === 'closed') ctx.actor.confirmed();
      return { records: result.records, done: result.state === 'closed', how: result.ended };
    } finally {
      verifier.detach();
    }
  },
};

/** The verified policies of the transport arm: the registered two and the one with the retry pattern. */
export const transportVerifiedPolicies: Record<string, VerifiedPolicy> = { ...verifiedPolicies, [verifiedCheckedRetry.name]: verifiedCheckedRetry };

/** A verified policy as an agent: its claim is done exactly when its last save closed as a success. */
export function verifiedAgent(policy: VerifiedPolicy, task: LayersTask): Agent {
  return scriptedAgent(policy.name, task, async (ctx) => {
    const ran = await policy.run(ctx);
    const records = Array.isArray(ran) ? ran : ran.records;
    const last = records.at(-1);
    const done = Array.isArray(ran) ? last?.state === 'closed' : ran.done;
    const how = Array.isArray(ran) ? '' : `; ${ran.how}`;
    const message = last ? `${records.length} save(s); last ${last.state}${last.reason ? `: ${last.reason}` : ''}${how}` : 'no save: the control was not there';
    return { done, message };
  });
}
