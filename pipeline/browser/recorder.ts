// The browser layer of the evidence study: given a Playwright page, record one timeline of
// events in one vocabulary (verifier/src/events.ts), whichever browser drives it.
//
//   installProbe(context)        before any page exists: the DOM probe runs ahead of page scripts
//   startRecorder(page, name)    starts the browser's network driver (CDP | Playwright events)
//   recorder.dispatch(action)    syncs the page clock, performs the action, returns t = 0
//   recorder.timeline(...)       stops, maps every clock onto the process clock, shifts by t = 0
//
// Nothing above this file knows which driver ran: the only browser-specific line is the choice
// of driver below, and the capabilities it reports travel with the timeline.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { byTime, roundMs, type EvidenceEvent } from '../../verifier/src/events.ts';
import { RStackError } from '../../core/errors.ts';
import type { BrowserName } from './launch.ts';
import { pageToProcess, processNow, syncPageClock, type PageClock } from './clock.ts';
import type { DriverCapabilities, NetworkDriver } from './network-driver.ts';
import { startCdpNetwork } from './cdp-network.ts';
import { startPlaywrightNetwork } from './playwright-network.ts';

const probeFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page-probe.js');

/** Installs the DOM probe in every document the context opens, before the page's own scripts. */
export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ path: probeFile });
}

interface ProbeRecord {
  clicks: { t: number; input_t: number; trusted: boolean; target: string | null }[];
  dom: { t: number; state: string; target: string; text: string }[];
  marks: { name: string; t: number; detail: unknown }[];
}


export interface Dispatched {
  /** process ms of the action's dispatch: t = 0 of the timeline */
  origin: number;
  clock: PageClock;
  issuedAt: number;
  returnedAt: number;
  /** process ms of the click's input timestamp (event.timeStamp) */
  inputAt: number;
}

export interface EvidenceRecorder {
  readonly capabilities: DriverCapabilities;
  /** Performs the action (a trusted click) and returns its dispatch time as the page saw it. */
  dispatch(action: () => Promise<void>): Promise<Dispatched>;
  /** Stops recording; every event relative to the dispatch, sorted, with the extra (absolute) events merged in. */
  timeline(options: { horizonMs: number; extra?: EvidenceEvent[]; dispatchDetail?: Record<string, unknown> }): Promise<EvidenceEvent[]>;
}

export async function startRecorder(page: Page, browser: BrowserName): Promise<EvidenceRecorder> {
  const driver: NetworkDriver = browser === 'chromium' ? await startCdpNetwork(page) : startPlaywrightNetwork(page);
  let dispatched: Dispatched | undefined;

  return {
    capabilities: driver.capabilities,

    async dispatch(action) {
      const clock = await syncPageClock(page);
      const clicksBefore = await page.evaluate(() => (window as any).__evidenceProbe?.clicks.length ?? -1);
      if (clicksBefore < 0) throw new RStackError('the DOM probe is not installed in this page: call installProbe(context) before opening it');
      const issuedAt = processNow();
      await action();
      const returnedAt = processNow();
      const click = await page.evaluate((n) => (window as any).__evidenceProbe.clicks.slice(n).find((c: { trusted: boolean }) => c.trusted) ?? null, clicksBefore);
      if (!click) throw new RStackError('the action dispatched no trusted click in the page');
      dispatched = { origin: pageToProcess(clock, click.t), clock, issuedAt, returnedAt, inputAt: pageToProcess(clock, click.input_t) };
      return dispatched;
    },

    async timeline({ horizonMs, extra = [], dispatchDetail }) {
      if (!dispatched) throw new RStackError('timeline() before dispatch()');
      // a second handshake after the window: the tighter of the two maps the page clock
      const after = await syncPageClock(page);
      if (after.uncertainty_ms < dispatched.clock.uncertainty_ms) {
        dispatched.origin += dispatched.clock.offset_ms - after.offset_ms;
        dispatched.inputAt += dispatched.clock.offset_ms - after.offset_ms;
        dispatched.clock = after;
      }
      const { origin, clock } = dispatched;
      const probe: ProbeRecord = await page.evaluate(() => {
        const p = (window as any).__evidenceProbe;
        const marks = performance.getEntriesByType('mark')
          .filter((m) => m.name.startsWith('app:'))
          .map((m) => ({ name: m.name, t: m.startTime, detail: (m as PerformanceMark).detail ?? null }));
        return { clicks: p.clicks, dom: p.dom, marks };
      });
      const network = await driver.stop();
      const fromPage = (t: number) => pageToProcess(clock, t);
      const absolute: EvidenceEvent[] = [
        { t_ms: origin, source: 'runner', type: 'dispatch', ...(dispatchDetail ? { detail: dispatchDetail } : {}) },
        {
          t_ms: origin, source: 'runner', type: 'clock-sync',
          detail: {
            page_offset_ms: roundMs(clock.offset_ms), page_uncertainty_ms: roundMs(clock.uncertainty_ms),
            click_issued_ms: roundMs(dispatched.issuedAt - origin), click_input_ms: roundMs(dispatched.inputAt - origin), click_returned_ms: roundMs(dispatched.returnedAt - origin),
            ...driver.capabilities,
          },
        },
        { t_ms: origin + horizonMs, source: 'runner', type: 'horizon' },
        ...probe.dom.map((d): EvidenceEvent => ({ t_ms: fromPage(d.t), source: 'dom', type: d.state, detail: { target: d.target, text: d.text } })),
        ...probe.marks.map((m): EvidenceEvent => ({
          t_ms: fromPage(m.t), source: 'app', type: m.name.slice('app:'.length),
          ...(m.detail && typeof m.detail === 'object' ? { detail: m.detail as Record<string, unknown> } : {}),
        })),
        ...network,
        ...extra,
      ];
      return byTime(absolute).map((e) => shift(e, origin));
    },
  };
}

/** Moves an event onto the dispatch-relative clock, rounding to a microsecond. */
function shift(e: EvidenceEvent, origin: number): EvidenceEvent {
  const out: EvidenceEvent = { ...e, t_ms: roundMs(e.t_ms - origin) };
  if (e.detail && typeof e.detail.observed_ms === 'number') out.detail = { ...e.detail, observed_ms: roundMs(e.detail.observed_ms - origin) };
  return out;
}
