// One trial of the Arm B contracts arm: the case's navigation run under its contract by the
// verifier library (verifier/), in a fresh browser context with the sample's session, behind the
// same guard as every Arm B trial (GET only, to the manifest's origin only; a refusal is recorded).
// The same code runs in Firefox (WebDriver BiDi) and Chromium (CDP): the verifier listens to
// Playwright's engine-neutral page events only.
import type { Browser, BrowserContext } from 'playwright-core';
import { attach, lastTime, type EvidenceEvent, type EvidenceRecord, type Verifier } from '../../../verifier/src/index.ts';
import { processNow } from '../../browser/clock.ts';
import { firstLine } from '../../../core/errors.ts';
import { refusal } from './manifest.ts';
import type { CaseContract } from './contracts.ts';

export interface ContractTrial {
  record: EvidenceRecord;
  /** the verifier's timeline and the guard's refusals, on the record's clock */
  events: EvidenceEvent[];
  /** the trial could not run (the browser failed it): never an accept */
  error: string | null;
  elapsed_ms: number;
}

export async function verifyTrial(browser: Browser, options: { url: string; origin: string; contract: CaseContract; cookies?: Parameters<BrowserContext['addCookies']>[0] }): Promise<ContractTrial> {
  const started = processNow();
  let verifier: Verifier | null = null;
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    if (options.cookies?.length) await context.addCookies(options.cookies);
    await context.route('**/*', async (route) => {
      const r = route.request();
      const why = refusal(r.method(), r.url(), options.origin);
      if (why) {
        // on the verifier's clock, in its timeline: a refused request is evidence the record keeps
        verifier?.note({ source: 'runner', type: 'refused', url: r.url(), detail: { method: r.method(), reason: why } });
        await route.abort('blockedbyclient');
      } else {
        await route.continue();
      }
    });
    const page = await context.newPage();
    verifier = attach(page);
    const { terms } = options.contract;
    const result = await verifier.verify({ ...terms, action: () => page.goto(options.url, { waitUntil: 'commit', timeout: terms.timeoutMs }) });
    verifier.detach();
    const { timeline, ...record } = result;
    return { record, events: timeline, error: null, elapsed_ms: lastTime(record) ?? roundMs(processNow() - started) };
  } catch (error) {
    const message = `trial: ${firstLine(error)}`;
    return { record: { action_id: options.contract.terms.id, state: 'failed', reason: message, transitions: [] }, events: [], error: message, elapsed_ms: roundMs(processNow() - started) };
  } finally {
    await context.close().catch(() => {});
  }
}

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;
