// The production policies of Arm B (study evidence), each a pure function of one trial's recorded
// timeline. No I/O: the runner computes verdicts with these, and the reanalysis recomputes them
// from the `events` of the raw rows.
//
//   dispatch ─▶ document request … response … requestfinished        (network-completion)
//            └▶ domcontentloaded                                      (domcontentloaded)
//                 └▶ title/body samples every 200 ms
//                      first sample: title and body non-empty          (committed-state-dcl, v1)
//                      title settled: non-empty, not a shell, equal at the next sample (title-settled, v1.1)
//                      then three equal body samples, within 5 s       (body-stable, v1.2)
//
// Every policy fails closed: what the timeline does not show is a rejection, with latency null
// when the policy never reached a decision inside the recording window.

import type { TimelineEvent, Verdict } from '../contracts.ts';

export type { TimelineEvent, Verdict } from '../contracts.ts';

/** The registered constants; prereg/evidence-arm-b*.md states the same numbers. */
export const production = {
  /** a navigation that has not reached domcontentloaded (or a terminal network event) by then is rejected */
  navigationBoundMs: 15_000,
  /** the recorder samples title and body text this far apart, starting at domcontentloaded */
  sampleGapMs: 200,
  /** body stability: this many equal consecutive samples … */
  stableSamples: 3,
  /** … the last of them within this long after the title settled */
  bodyBoundMs: 5_000,
  /** a title that is a loading placeholder, not the page's title ("Loading ...", "…") */
  titleShell: /\bloading\b|\.\.\.|…/i,
} as const;

export type ProductionPolicy = (events: readonly TimelineEvent[]) => Verdict;

const reject = (latency: number | null = null): Verdict => ({ accept: false, latency_ms: latency });

function dispatchOf(events: readonly TimelineEvent[]): TimelineEvent | undefined {
  return events.find((e) => e.source === 'runner' && e.type === 'dispatch');
}

/** URLs compared as the browser reports them: parsed, so "http://h:1" and "http://h:1/" agree. */
function sameUrl(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

export interface DocumentRequest {
  /** request ids from the dispatched URL through every redirect */
  chain: string[];
  /** the last request of the chain: the one whose end is the navigation's transport outcome */
  final: string;
  status: number | null;
  terminal: { type: 'requestfinished' | 'requestfailed'; t_ms: number } | null;
}

/**
 * The navigation's document request, correlated by identity rather than by time: the main-frame
 * navigation request for the dispatched URL, then each request that redirected from it. Another
 * request finishing nearby (an image, a script) is never taken for it. null when there is none.
 */
export function documentRequest(events: readonly TimelineEvent[]): DocumentRequest | null {
  const dispatched = dispatchOf(events);
  const url = (dispatched?.detail?.url as string | undefined) ?? dispatched?.url;
  const isDocument = (e: TimelineEvent) =>
    e.source === 'network' && e.type === 'request' && e.detail?.navigation === true && e.detail?.main_frame === true;
  const first = events.find((e) => isDocument(e) && sameUrl(e.url, url));
  if (!first?.request_id) return null;
  const chain = [first.request_id];
  for (;;) {
    const last = chain.at(-1)!;
    const next = events.find((e) => isDocument(e) && e.detail?.redirected_from === last && e.request_id);
    if (!next || chain.includes(next.request_id!)) break;
    chain.push(next.request_id!);
  }
  const final = chain.at(-1)!;
  const response = events.find((e) => e.source === 'network' && e.type === 'response' && e.request_id === final);
  const end = events.find(
    (e) => e.source === 'network' && (e.type === 'requestfinished' || e.type === 'requestfailed') && e.request_id === final,
  );
  return {
    chain,
    final,
    status: response?.status ?? null,
    terminal: end ? { type: end.type as 'requestfinished' | 'requestfailed', t_ms: end.t_ms } : null,
  };
}

function domContentLoaded(events: readonly TimelineEvent[]): TimelineEvent | undefined {
  return events.find((e) => e.source === 'dom' && e.type === 'domcontentloaded');
}

export interface Sample { t_ms: number; value: string }

/** Title samples (the title text) or body samples (the sha256 of the normalized body text), in time order. */
export function samples(events: readonly TimelineEvent[], kind: 'title' | 'body'): Sample[] {
  return events
    .filter((e) => e.source === 'dom' && e.type === kind)
    .map((e) => ({
      t_ms: e.t_ms,
      value: kind === 'title' ? String(e.detail?.title ?? '') : (e.detail?.chars as number) > 0 ? String(e.detail?.sha256 ?? '') : '',
    }))
    .sort((a, b) => a.t_ms - b.t_ms);
}

/** Accepts when the main frame reached domcontentloaded within the bound: a rendering event, nothing more. */
export const domcontentloaded: ProductionPolicy = (events) => {
  const dcl = domContentLoaded(events);
  return dcl && dcl.t_ms <= production.navigationBoundMs ? { accept: true, latency_ms: dcl.t_ms } : reject();
};

/** Accepts when the correlated document request finished (not failed) with a 2xx status. */
export const networkCompletion: ProductionPolicy = (events) => {
  const doc = documentRequest(events);
  if (!doc?.terminal || doc.terminal.t_ms > production.navigationBoundMs) return reject();
  const ok = doc.terminal.type === 'requestfinished' && doc.status !== null && doc.status >= 200 && doc.status < 300;
  return { accept: ok, latency_ms: doc.terminal.t_ms };
};

/** The first title and body samples at or after domcontentloaded: v1's committed-state observation. */
export function firstObservation(events: readonly TimelineEvent[]): { t_ms: number; title: string; body: string } | null {
  const dcl = domContentLoaded(events);
  if (!dcl) return null;
  const title = samples(events, 'title').find((s) => s.t_ms >= dcl.t_ms);
  const body = samples(events, 'body').find((s) => s.t_ms >= dcl.t_ms);
  if (!title || !body) return null;
  return { t_ms: Math.max(title.t_ms, body.t_ms), title: title.value, body: body.value };
}

/** v1: transport succeeded and the page observed at domcontentloaded has a title and body text. */
export const committedStateAtDcl: ProductionPolicy = (events) => {
  const transport = networkCompletion(events);
  if (!transport.accept) return transport;
  const seen = firstObservation(events);
  if (!seen) return reject();
  const latency = Math.max(transport.latency_ms!, seen.t_ms);
  return { accept: seen.title.trim() !== '' && seen.body !== '', latency_ms: latency };
}

export interface TitleSettlement { t_ms: number; title: string; wait_ms: number }

/**
 * When the title settled: the first sample at or after domcontentloaded whose title is non-empty,
 * is not a loading shell, and is unchanged at the next sample. t_ms is the confirming sample (the
 * moment a runner could know); wait_ms is measured from domcontentloaded.
 */
export function titleSettlement(events: readonly TimelineEvent[]): TitleSettlement | null {
  const dcl = domContentLoaded(events);
  if (!dcl) return null;
  const titles = samples(events, 'title').filter((s) => s.t_ms >= dcl.t_ms);
  for (let i = 0; i + 1 < titles.length; i++) {
    const a = titles[i]!;
    const b = titles[i + 1]!;
    if (a.value.trim() === '' || production.titleShell.test(a.value)) continue;
    if (b.value === a.value && b.t_ms - a.t_ms >= production.sampleGapMs) {
      if (b.t_ms - dcl.t_ms > production.navigationBoundMs) return null;
      return { t_ms: b.t_ms, title: a.value, wait_ms: b.t_ms - dcl.t_ms };
    }
  }
  return null;
}

/** v1.1: transport succeeded and the title settled out of any loading shell. */
export const titleSettled: ProductionPolicy = (events) => {
  const transport = networkCompletion(events);
  if (!transport.accept) return transport;
  const settled = titleSettlement(events);
  return settled ? { accept: true, latency_ms: Math.max(transport.latency_ms!, settled.t_ms) } : reject();
};

export interface BodyStability { t_ms: number; wait_ms: number }

/**
 * When the body text stabilized after the title settled: the first run of `stableSamples` equal,
 * non-empty normalized-text samples, each at least `sampleGapMs` after the one before, the last
 * within `bodyBoundMs` of the title's settlement. wait_ms is measured from that settlement.
 */
export function bodyStability(events: readonly TimelineEvent[]): BodyStability | null {
  const settled = titleSettlement(events);
  if (!settled) return null;
  const bodies = samples(events, 'body').filter((s) => s.t_ms >= settled.t_ms);
  const deadline = settled.t_ms + production.bodyBoundMs;
  let run: Sample[] = [];
  for (const s of bodies) {
    if (s.t_ms > deadline) break;
    const last = run.at(-1);
    if (s.value !== '' && last && s.value === last.value && s.t_ms - last.t_ms >= production.sampleGapMs) run.push(s);
    else if (last && s.value === last.value && s.value !== '') continue; // closer than the gap: wait for a later sample
    else run = s.value !== '' ? [s] : [];
    if (run.length === production.stableSamples) return { t_ms: s.t_ms, wait_ms: s.t_ms - settled.t_ms };
  }
  return null;
}

/** v1.2: transport succeeded, the title settled, and then the body text held still (bounded). */
export const bodyStable: ProductionPolicy = (events) => {
  const titled = titleSettled(events);
  if (!titled.accept) return titled;
  const stable = bodyStability(events);
  return stable ? { accept: true, latency_ms: Math.max(titled.latency_ms!, stable.t_ms) } : reject();
};

/** Every production policy by its registered name; a protocol registers a subset. */
export const productionPolicies = {
  domcontentloaded,
  'network-completion': networkCompletion,
  'committed-state-dcl': committedStateAtDcl,
  'title-settled': titleSettled,
  'body-stable': bodyStable,
} as const satisfies Record<string, ProductionPolicy>;

export type ProductionPolicyName = keyof typeof productionPolicies;

export function isProductionPolicy(name: string): name is ProductionPolicyName {
  return Object.hasOwn(productionPolicies, name);
}

export function verdicts(events: readonly TimelineEvent[], names: readonly ProductionPolicyName[]): Record<string, Verdict> {
  return Object.fromEntries(names.map((n) => [n, productionPolicies[n](events)]));
}

// ── instrumentation checks ───────────────────────────────────────────────────────────────────
// Whether a trial's timeline can carry a verdict at all; the protocol names the hard ones. An
// "observation" check asks whether the state a policy looked at was the state the page kept:
// an observation of a transient shell means the instrument looked too early.

export interface Check { name: string; ok: boolean; detail?: string }

export function instrumentationChecks(events: readonly TimelineEvent[]): Check[] {
  const checks: Check[] = [];
  const doc = documentRequest(events);
  checks.push({ name: 'document-request-correlated', ok: doc !== null, detail: doc ? undefined : 'no main-frame navigation request for the dispatched URL' });
  checks.push({ name: 'document-request-terminal', ok: Boolean(doc?.terminal), detail: doc?.terminal ? undefined : 'no requestfinished or requestfailed for the document request' });
  const dcl = domContentLoaded(events);
  checks.push({ name: 'domcontentloaded-recorded', ok: Boolean(dcl) });
  const titles = samples(events, 'title');
  const bodies = samples(events, 'body');
  const gaps = titles.slice(1).map((s, i) => s.t_ms - titles[i]!.t_ms);
  const tooClose = gaps.filter((g) => g < production.sampleGapMs).length;
  checks.push({ name: 'samples-spaced', ok: titles.length >= 2 && tooClose === 0, detail: tooClose ? `${tooClose} gaps under ${production.sampleGapMs} ms` : titles.length < 2 ? 'fewer than two samples' : undefined });
  const finalTitle = titles.at(-1)?.value;
  const finalBody = bodies.at(-1)?.value;
  const first = firstObservation(events);
  if (first) {
    checks.push({ name: 'dcl-title-final', ok: first.title === finalTitle, detail: first.title === finalTitle ? undefined : `${JSON.stringify(first.title)} at domcontentloaded, ${JSON.stringify(finalTitle)} at the end` });
    checks.push({ name: 'dcl-body-final', ok: first.body === finalBody });
  }
  const settled = titleSettlement(events);
  if (settled) {
    checks.push({ name: 'settled-title-final', ok: settled.title === finalTitle, detail: settled.title === finalTitle ? undefined : `${JSON.stringify(settled.title)} when settled, ${JSON.stringify(finalTitle)} at the end` });
    const bodyAtSettled = bodies.find((s) => s.t_ms >= settled.t_ms)?.value;
    checks.push({ name: 'settled-body-final', ok: bodyAtSettled === finalBody });
  }
  const stable = bodyStability(events);
  if (stable) {
    const bodyAtStable = bodies.find((s) => s.t_ms >= stable.t_ms)?.value;
    checks.push({ name: 'stable-body-final', ok: bodyAtStable === finalBody });
  }
  return checks;
}

/** The instrumentation checks over a run's trials: per check, failed of applicable. */
export function checkCounts(rows: readonly { events: readonly TimelineEvent[] }[]): Record<string, { failed: number; of: number }> {
  const counts: Record<string, { failed: number; of: number }> = {};
  for (const r of rows) {
    for (const c of instrumentationChecks(r.events)) {
      const entry = (counts[c.name] ??= { failed: 0, of: 0 });
      entry.of++;
      if (!c.ok) entry.failed++;
    }
  }
  return counts;
}
