// One clock for every event: the runner process's performance.now() (the fixture server's clock
// too). Three other clocks are mapped onto it:
//   - the page's performance.now(): by a round-trip handshake; the offset is taken from the
//     round trip with the smallest duration and its uncertainty is half that duration;
//   - Chromium's CDP MonotonicTime (seconds): it reads CLOCK_MONOTONIC like Node's hrtime does,
//     so process ms = timestamp·1000 − (hrtime ms − performance.now()) exactly;
//   - Firefox's resource timing (request.timing().startTime, epoch ms): through the wall clock
//     both processes read, process ms = epoch ms − performance.timeOrigin.
import type { Page } from 'playwright-core';
import { performance } from 'node:perf_hooks';

export const processNow = () => performance.now();

export interface PageClock {
  /** page ms − process ms at the same instant */
  offset_ms: number;
  /** half the round trip of the handshake that set the offset */
  uncertainty_ms: number;
}

/**
 * At least `rounds` handshakes; while the best is looser than `goodEnoughMs` (a loaded machine
 * stretches round trips), keep trying up to `maxRounds`. More samples only tighten the bound.
 */
export async function syncPageClock(page: Page, rounds = 8, goodEnoughMs = 1.5, maxRounds = 48): Promise<PageClock> {
  let best: PageClock | undefined;
  for (let i = 0; i < maxRounds && (i < rounds || best!.uncertainty_ms > goodEnoughMs); i++) {
    const before = processNow();
    const pageNow = await page.evaluate(() => performance.now());
    const after = processNow();
    const candidate = { offset_ms: pageNow - (before + after) / 2, uncertainty_ms: (after - before) / 2 };
    if (!best || candidate.uncertainty_ms < best.uncertainty_ms) best = candidate;
  }
  return best!;
}

export const pageToProcess = (clock: PageClock, pageMs: number) => pageMs - clock.offset_ms;

/** process ms for a CDP MonotonicTime (seconds). */
export function cdpToProcess(seconds: number): number {
  return seconds * 1000 - monotonicOffset();
}

let offset: number | undefined;
/** hrtime ms − performance.now(): constant for the process (both are CLOCK_MONOTONIC). */
function monotonicOffset(): number {
  offset ??= Number(process.hrtime.bigint()) / 1e6 - performance.now();
  return offset;
}

/** process ms for an epoch time in ms (Firefox's resource timing). */
export const epochToProcess = (epochMs: number) => epochMs - performance.timeOrigin;
