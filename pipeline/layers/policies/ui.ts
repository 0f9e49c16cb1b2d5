// What a user knows about each app's interface: where an entity's controls are, how to request
// a value, how to commit, where success shows, and where the server-backed summary is read.
// Policies are generic over this; they never see the task's layer, severity or faults.
import type { Locator, Page } from 'playwright-core';
import type { Entity, Template } from '../../../core/layers.ts';
import type { Actor } from './actor.ts';
import type { AppDescription, PolicyLimits } from './app.ts';

export interface TemplateUi {
  /** every entity's controls, in page order */
  scopes(page: Page): Locator;
  /** the target's controls, bound by its visible label (exact) */
  targetScope(page: Page, target: Entity): Locator;
  /** set the requested value in a scope (no commit) */
  prepare(actor: Actor, scope: Locator, target: Entity): Promise<void>;
  /** activate the commit control of a scope once (for a modal: open it if needed, then confirm) */
  commit(actor: Actor, scope: Locator): Promise<void>;
  /** the success indication belonging to the target */
  targetSuccess(page: Page, scope: Locator, target: Entity): Locator;
  /** the target's visible status line ("Saving…", "Saved", …) */
  targetStatus(page: Page, scope: Locator): Locator;
  /** reads the server-backed summary a user can see (after reloading) and compares it with the target */
  summaryHolds(page: Page, target: Entity): Promise<boolean>;
}

/** The benchmark-defined success indication: any visible status that reports success. */
const successSelector = '[role=status][data-state=success]';

const asProfile = (v: Entity['value']) => v as { display_name: string; timezone: string };

async function reloadAndWait(page: Page, scope: Locator): Promise<boolean> {
  await page.reload();
  try {
    await scope.first().waitFor({ state: 'visible', timeout: 3000 });
    return true;
  } catch {
    return false;
  }
}

const cards: TemplateUi = {
  scopes: (page) => page.locator('section.card'),
  targetScope: (page, target) => page.locator('section.card').filter({ has: page.getByRole('heading', { name: target.key, exact: true }) }),
  prepare: (actor, scope, target) => actor.select(scope.getByLabel('Mode'), target.value as string),
  commit: (actor, scope) => actor.click(scope.getByRole('button', { name: 'Save change' })),
  targetSuccess: (_page, scope) => scope.locator(successSelector),
  targetStatus: (_page, scope) => scope.locator('[role=status]'),
  async summaryHolds(page, target) {
    const scope = cards.targetScope(page, target);
    if (!(await reloadAndWait(page, scope))) return false;
    return (await scope.locator('.current').textContent()) === target.value;
  },
};

const profile: TemplateUi = {
  scopes: (page) => page.locator('form.profile'),
  targetScope: (page, target) => page.locator('form.profile').filter({ has: page.getByRole('heading', { name: `Account ${target.key}`, exact: true }) }),
  async prepare(actor, scope, target) {
    await actor.fill(scope.getByLabel('Display name'), asProfile(target.value).display_name);
    await actor.select(scope.getByLabel('Time zone'), asProfile(target.value).timezone);
  },
  commit: (actor, scope) => actor.click(scope.getByRole('button', { name: 'Save profile' })),
  targetSuccess: (_page, scope) => scope.locator(successSelector),
  targetStatus: (_page, scope) => scope.locator('[role=status]'),
  async summaryHolds(page, target) {
    const scope = profile.targetScope(page, target);
    if (!(await reloadAndWait(page, scope))) return false;
    const v = asProfile(target.value);
    return (await scope.locator('.current').textContent()) === `${v.display_name} · ${v.timezone}`;
  },
};

const modal: TemplateUi = {
  scopes: (page) => page.locator('li.record'),
  targetScope: (page, target) => page.locator('li.record').filter({ has: page.locator('.label', { hasText: new RegExp(`^${escapeRegExp(target.key)}$`) }) }),
  prepare: async () => {},
  async commit(actor, scope) {
    const page = actor.page;
    const dialog = page.getByRole('dialog');
    if (!(await dialog.isVisible())) await actor.click(scope.getByRole('button', { name: 'Delete' }));
    await actor.click(dialog.getByRole('button', { name: 'Confirm delete' }));
  },
  targetSuccess: (page, _scope, target) => page.locator('#status[data-state=success]', { hasText: `Deleted ${target.key}` }),
  targetStatus: (page) => page.locator('#status'),
  async summaryHolds(page, target) {
    await page.reload();
    const summary = page.locator('#summary');
    try {
      await summary.waitFor({ state: 'visible', timeout: 3000 });
    } catch {
      return false;
    }
    const held = ((await summary.textContent()) ?? '').split(', ');
    return !held.includes(target.key);
  },
};

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const uis: Record<Template, TemplateUi> = { cards, profile, modal };

/** The small apps' waits and bounds: a success shows within 400 ms of a save; verification-aware reads back eight times (three saves at the most). */
export const smallAppLimits: PolicyLimits = { targetWaitMs: 3000, successWaitMs: 400, pendingWaitMs: 5000, maxAttempts: 5, checks: 8, settleMs: 250 };

/**
 * A small app as the reference policies see it (app.ts), for one requested target: selector-only
 * looks at the first entity's controls, the others bind the target's by its label; its one commit
 * control, its status line, the value set once; the summary read after a reload.
 */
export function smallApp(ui: TemplateUi, target: Entity): AppDescription {
  return {
    firstLook: (page) => ui.scopes(page),
    commitControls: (page) => ui.targetScope(page, target),
    controlFor: async (controls) => controls,
    prepareEveryAttempt: false,
    prepare: (actor, _page, control) => ui.prepare(actor, control, target),
    commit: (actor, control) => ui.commit(actor, control),
    success: (page, control) => ui.targetSuccess(page, control, target),
    status: (page, control) => ui.targetStatus(page, control),
    readBack: (page) => ui.summaryHolds(page, target),
    beforeRepair: async () => {},
    limits: smallAppLimits,
    words: { success: 'success', readBack: 'the summary showed the requested state', noReadBack: 'the summary did not show the requested state' },
  };
}
