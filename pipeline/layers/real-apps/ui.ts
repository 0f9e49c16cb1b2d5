// What a user knows about a real application's page, for one condition: which control to change
// and how (the family's input), which control commits (its role and accessible name, as a user
// reads the page), where the application says it succeeded (its notice), and how a second page
// load shows what was stored. All of it is the family's page knowledge (fixtures/<app>/families/),
// copied into the condition; the reference policies (policies.ts) are generic over this and never
// see the layer, severity or fault.
import type { Locator, Page } from 'playwright-core';
import type { LayersRealAppsTask } from '../../../core/contracts.ts';
import type { Actor } from '../policies/actor.ts';
import type { AppDescription } from '../policies/app.ts';
import type { RealAppLimits } from './policies.ts';

type Role = Parameters<Page['getByRole']>[0];
interface Input { selector: string; role: string; name: string; action: 'fill' | 'check' | 'uncheck'; value?: string }
interface Control { selector: string; role: string; name: string }

export interface FamilyUi {
  /** every control with the commit control's role and accessible name, in page order */
  commitControls(page: Page): Locator;
  /** sets the requested value in the form (nothing to set for a commit-only task) */
  prepare(actor: Actor, page: Page): Promise<void>;
  /** activates one commit control once (a list row's action shows on its row's hover) */
  commit(actor: Actor, control: Locator): Promise<void>;
  /** the application's success notice */
  success(page: Page): Locator;
  /** a second page load that shows the stored state, compared with what was asked */
  readBack(page: Page, origin: string): Promise<boolean>;
  /** the task's start page loaded again (where its commit control is) */
  openStart(page: Page, origin: string): Promise<void>;
}

/** How long a read-back waits for its page (a real admin page under load takes a second or more). */
const READ_BACK_MS = 10_000;

async function openAndFind(page: Page, url: string, ready: Locator): Promise<boolean> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  try {
    await ready.first().waitFor({ state: 'visible', timeout: READ_BACK_MS });
    return true;
  } catch {
    return false;
  }
}

const byRole = (page: Page, c: { role: string; name: string; selector: string }) => (c.name ? page.getByRole(c.role as Role, { name: c.name, exact: true }) : page.locator(c.selector));
const trailing = (s: string) => s.replace(/\s+$/, '');

/** The stored state, read back where the family's input is: the start page loaded again, the input's value or state. */
function inputReadBack(task: LayersRealAppsTask, input: Input) {
  return async (page: Page, origin: string): Promise<boolean> => {
    const control = byRole(page, input).first();
    if (!(await openAndFind(page, origin + task.start_path, control))) return false;
    if (input.action === 'fill') return trailing(await control.inputValue()) === trailing(input.value ?? '');
    return (await control.isChecked()) === (input.action === 'check');
  };
}

/** Commit-only tasks: WordPress's Trash view lists a trashed post; the block editor offers Update, not Publish, for a published one. */
function commitOnlyReadBack(task: LayersRealAppsTask, target: Control) {
  if (task.family === 'wordpress-posts-trash') {
    const title = /^Move “(.*)” to the Trash$/.exec(target.name)?.[1];
    if (!title) throw new Error(`${task.condition_id}: the trash link's name does not say the post's title: ${target.name}`);
    // the list is there once its form is; whether the post is in it is read then, not waited for
    return async (page: Page, origin: string) =>
      (await openAndFind(page, `${origin}/wp-admin/edit.php?post_status=trash&post_type=post`, page.locator('#posts-filter'))) &&
      (await page.locator('#the-list tr').filter({ hasText: title }).count()) > 0;
  }
  if (task.family === 'wordpress-editor-publish') {
    // the editor's header has its save button once it has booted: Update for a published post, Publish for a draft
    return async (page: Page, origin: string) =>
      (await openAndFind(page, origin + task.start_path, page.locator(target.selector))) &&
      (await page.locator(target.selector).filter({ hasText: /^Update$/ }).count()) > 0;
  }
  if (task.family === 'mediawiki-watch-page') {
    // the page view's star is drawn from the stored watchlist: Unwatch for a watched page, Watch otherwise
    return async (page: Page, origin: string) =>
      (await openAndFind(page, origin + task.start_path, page.locator('#ca-watch a, #ca-unwatch a'))) &&
      (await page.getByRole('link', { name: 'Unwatch', exact: true }).count()) > 0;
  }
  throw new Error(`${task.condition_id}: no read-back for the commit-only family ${task.family} (pipeline/layers/real-apps/ui.ts)`);
}

export function familyUi(task: LayersRealAppsTask): FamilyUi {
  const input = task.input as Input | null;
  const target = (task.spec as { target: Control }).target;
  const notice = task.notice;
  return {
    commitControls: (page) => page.getByRole(target.role as Role, { name: target.name, exact: true }),
    async prepare(actor, page) {
      if (!input) return;
      const control = byRole(page, input).first();
      if (input.action === 'fill') await actor.fill(control, input.value ?? '');
      else await actor.check(control, input.action === 'check');
    },
    async commit(actor, control) {
      const row = actor.page.locator('tr', { has: control });
      if (await row.count()) await actor.hover(row.first());
      await actor.click(control);
    },
    success: (page) => page.locator(notice.selector).filter({ hasText: notice.text }),
    readBack: input ? inputReadBack(task, input) : commitOnlyReadBack(task, target),
    async openStart(page, origin) {
      await page.goto(origin + task.start_path, { waitUntil: 'domcontentloaded' });
    },
  };
}

/**
 * A real application as the reference policies see it (../policies/app.ts), for one condition: the
 * commit control by its role and accessible name (selector-only's one look too); the form reached
 * again by a navigation, so the value is set before every activation and a retry takes the next
 * control of the same name; no status line, the application's notice; the stored state read by a
 * second page load, and (version 2) a repair from the start page when the read-back left a page
 * without the commit control.
 */
export function familyApp(task: LayersRealAppsTask, origin: string, limits: RealAppLimits): AppDescription {
  const ui = familyUi(task);
  return {
    firstLook: (page) => ui.commitControls(page),
    commitControls: (page) => ui.commitControls(page),
    async controlFor(controls, attempt) {
      // the controls that bear the name, in page order: a retry tries the next one
      const count = await controls.count();
      return count ? controls.nth(attempt % count) : null;
    },
    prepareEveryAttempt: true,
    prepare: (actor, page) => ui.prepare(actor, page),
    commit: (actor, control) => ui.commit(actor, control),
    success: (page) => ui.success(page),
    status: () => null,
    readBack: (page) => ui.readBack(page, origin),
    async beforeRepair(page) {
      // version 1 repaired on the page its read-back left (a trashed post's read-back leaves the
      // Trash view, where the row's Trash link is not): no repair was made there
      if (limits.repairFromStart && (await ui.commitControls(page).count()) === 0) await ui.openStart(page, origin);
    },
    limits: { targetWaitMs: limits.targetWaitMs, successWaitMs: limits.successWaitMs, pendingWaitMs: 0, maxAttempts: limits.maxAttempts, checks: limits.checks, settleMs: limits.settleMs },
    words: { success: 'success notice', readBack: 'the stored state read back', noReadBack: 'the stored state did not read back' },
  };
}
