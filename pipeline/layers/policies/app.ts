// The application as a reference policy sees it (issue 47: one policy set, each arm supplies only
// its app). Every arm describes its pages this way for one condition, already bound to what the
// user asked for: the small apps (ui.ts, smallApp), WordPress and MediaWiki (../real-apps/ui.ts,
// familyApp). The policies (selector-only.ts, semantic-recovery.ts, verification-aware.ts,
// single-action.ts) are written against this alone and never see the layer, severity or fault.
//
// Where the small apps and the real applications differ, the description says so, not the policy:
// a small app's target has one commit control and a status line that says an activation arrived
// ("Saving…"), and its value is set once; a real application's form is reached again by a
// navigation, so the value is set before every activation and a retry takes the next control of
// the same role and name (a row's action and the page's own save button can share it).
import type { Locator, Page } from 'playwright-core';
import type { Actor } from './actor.ts';

/** How long and how often a policy waits, activates and reads back: per app, since a PHP page is slower than a small app's. */
export interface PolicyLimits {
  /** how long semantic recovery waits for the commit control to appear */
  targetWaitMs: number;
  /** how long it waits for the success after an activation */
  successWaitMs: number;
  /** how long it waits further when the status line moved (the activation arrived); 0 where there is none */
  pendingWaitMs: number;
  maxAttempts: number;
  /** verification-aware: read-backs, and the passive wait between two of them */
  checks: number;
  settleMs: number;
}

/** The words of a policy's claim, per app (the registered rows keep them as they were written). */
export interface ClaimWords {
  /** what shows when an activation succeeded: 'success', 'success notice' */
  success: string;
  /** a read-back that held: 'the summary showed the requested state', 'the stored state read back' */
  readBack: string;
  /** none did: 'the summary did not show the requested state', 'the stored state did not read back' */
  noReadBack: string;
}

export interface AppDescription {
  /** where selector-only looks once: the first control of this kind on the page (for the small apps any entity's, for the real apps the commit control's role and name) */
  firstLook(page: Page): Locator;
  /** the controls that commit the requested change, bound by role and name (one for a small app's target) */
  commitControls(page: Page): Locator;
  /** which of them an attempt activates: the same one every time, or the next of the same name after a failed one; null when none is there */
  controlFor(controls: Locator, attempt: number): Promise<Locator | null>;
  /** set the value before every attempt (a form reached again by a navigation) or once, before the first */
  prepareEveryAttempt: boolean;
  /** sets the requested value (nothing for a commit-only task) on the control's form */
  prepare(actor: Actor, page: Page, control: Locator): Promise<void>;
  /** activates a commit control once */
  commit(actor: Actor, control: Locator): Promise<void>;
  /** the app's success for this control */
  success(page: Page, control: Locator): Locator;
  /** a status line whose change after an activation says it arrived, or null where the app has none */
  status(page: Page, control: Locator): Locator | null;
  /** reads the stored state back the way a user can (a reload, a second page load) */
  readBack(page: Page): Promise<boolean>;
  /** before a repair, where the read-back left a page without the commit control: back to where it is (or nothing) */
  beforeRepair(page: Page): Promise<void>;
  limits: PolicyLimits;
  words: ClaimWords;
}

/** What a reference policy gets: its page, its actor and the app's description for this condition. */
export interface AppContext { page: Page; actor: Actor; app: AppDescription }
