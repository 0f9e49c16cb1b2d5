// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bodyStability,
  bodyStable,
  committedStateAtDcl,
  documentRequest,
  domcontentloaded,
  instrumentationChecks,
  networkCompletion,
  production,
  titleSettled,
  titleSettlement,
  verdicts,
  type TimelineEvent,
} from '../../../core/evidence/production.ts';

const URL_ = 'http://127.0.0.1:8471/a-post/';

interface Shape {
  status?: number;
  finishedAt?: number | null;
  failed?: boolean;
  dclAt?: number | null;
  /** title and body (text) at each sample, one sample every 200 ms from domcontentloaded */
  frames?: Array<[string, string]>;
  redirectTo?: string;
  extra?: TimelineEvent[];
}

/** A hand-made timeline of one navigation, in the recorder's vocabulary. */
function timeline(s: Shape = {}): TimelineEvent[] {
  const status = s.status ?? 200;
  const ev: TimelineEvent[] = [{ t_ms: 0, source: 'runner', type: 'dispatch', url: URL_, detail: { url: URL_ } }];
  ev.push({ t_ms: 3, source: 'network', type: 'request', request_id: 'r1', url: URL_, detail: { method: 'GET', navigation: true, main_frame: true } });
  let doc = 'r1';
  if (s.redirectTo) {
    ev.push({ t_ms: 20, source: 'network', type: 'response', request_id: 'r1', url: URL_, status: 301 });
    ev.push({ t_ms: 21, source: 'network', type: 'requestfinished', request_id: 'r1', url: URL_ });
    ev.push({ t_ms: 22, source: 'network', type: 'request', request_id: 'r2', url: s.redirectTo, detail: { method: 'GET', navigation: true, main_frame: true, redirected_from: 'r1' } });
    doc = 'r2';
  }
  const docUrl = s.redirectTo ?? URL_;
  ev.push({ t_ms: 40, source: 'network', type: 'response', request_id: doc, url: docUrl, status });
  const finishedAt = s.finishedAt === undefined ? 60 : s.finishedAt;
  if (finishedAt !== null) ev.push({ t_ms: finishedAt, source: 'network', type: s.failed ? 'requestfailed' : 'requestfinished', request_id: doc, url: docUrl });
  const dclAt = s.dclAt === undefined ? 80 : s.dclAt;
  if (dclAt !== null) {
    ev.push({ t_ms: dclAt, source: 'dom', type: 'domcontentloaded' });
    (s.frames ?? Array.from({ length: 8 }, () => ['A post – Site', 'Hello text'] as [string, string])).forEach(([title, body], i) => {
      const t = dclAt + 2 + i * production.sampleGapMs;
      ev.push({ t_ms: t, source: 'dom', type: 'title', detail: { title } });
      ev.push({ t_ms: t, source: 'dom', type: 'body', detail: { sha256: `h(${body})`, chars: body.length } });
    });
  }
  ev.push(...(s.extra ?? []));
  return ev.sort((a, b) => a.t_ms - b.t_ms);
}

test('a plain successful navigation: every policy accepts, at the moment its evidence arrives', () => {
  const ev = timeline();
  assert.deepEqual(domcontentloaded(ev), { accept: true, latency_ms: 80 });
  assert.deepEqual(networkCompletion(ev), { accept: true, latency_ms: 60 });
  assert.deepEqual(committedStateAtDcl(ev), { accept: true, latency_ms: 82 });
  // the title is confirmed by the second sample, 200 ms after the first
  assert.deepEqual(titleSettlement(ev), { t_ms: 282, title: 'A post – Site', wait_ms: 202 });
  assert.deepEqual(titleSettled(ev), { accept: true, latency_ms: 282 });
  // three equal body samples from the settlement: 282, 482, 682
  assert.deepEqual(bodyStability(ev), { t_ms: 682, wait_ms: 400 });
  assert.deepEqual(bodyStable(ev), { accept: true, latency_ms: 682 });
});

test('an HTTP 404 page: domcontentloaded accepts, network completion rejects, and so does everything built on it', () => {
  const ev = timeline({ status: 404, frames: Array.from({ length: 8 }, () => ['Page not found – Site', 'Nothing here']) });
  assert.equal(domcontentloaded(ev).accept, true);
  assert.deepEqual(networkCompletion(ev), { accept: false, latency_ms: 60 });
  for (const name of ['committed-state-dcl', 'title-settled', 'body-stable'] as const) assert.equal(verdicts(ev, [name])[name]!.accept, false, name);
});

test('a failed document request is a rejection even when a later request finishes fine', () => {
  const ev = timeline({
    failed: true,
    extra: [
      { t_ms: 30, source: 'network', type: 'request', request_id: 'img', url: 'http://127.0.0.1:8471/x.png', detail: { method: 'GET', navigation: false, main_frame: true } },
      { t_ms: 50, source: 'network', type: 'response', request_id: 'img', url: 'http://127.0.0.1:8471/x.png', status: 200 },
      { t_ms: 55, source: 'network', type: 'requestfinished', request_id: 'img', url: 'http://127.0.0.1:8471/x.png' },
    ],
  });
  assert.deepEqual(networkCompletion(ev), { accept: false, latency_ms: 60 });
});

test('a redirect is followed to the request that answers it', () => {
  const ev = timeline({ redirectTo: 'http://127.0.0.1:8471/a-post-renamed/' });
  const doc = documentRequest(ev)!;
  assert.deepEqual(doc.chain, ['r1', 'r2']);
  assert.equal(doc.status, 200);
  assert.deepEqual(networkCompletion(ev), { accept: true, latency_ms: 60 });
});

test('without a correlated document request (only unrelated traffic) network completion fails closed', () => {
  const ev = timeline().map((e) => (e.request_id === 'r1' && e.type === 'request' ? { ...e, url: 'http://127.0.0.1:8471/elsewhere/' } : e));
  assert.deepEqual(networkCompletion(ev), { accept: false, latency_ms: null });
  assert.equal(instrumentationChecks(ev).find((c) => c.name === 'document-request-correlated')!.ok, false);
});

test('no terminal event and no domcontentloaded: rejections without a latency', () => {
  const ev = timeline({ finishedAt: null, dclAt: null });
  assert.deepEqual(networkCompletion(ev), { accept: false, latency_ms: null });
  assert.deepEqual(domcontentloaded(ev), { accept: false, latency_ms: null });
  assert.deepEqual(committedStateAtDcl(ev), { accept: false, latency_ms: null });
});

test('events after the navigation bound do not count', () => {
  const late = production.navigationBoundMs + 1;
  const ev = timeline({ finishedAt: late, dclAt: late });
  assert.equal(networkCompletion(ev).accept, false);
  assert.equal(domcontentloaded(ev).accept, false);
});

test('a loading shell at domcontentloaded: v1 observes the shell, the title rule waits it out', () => {
  const frames: Array<[string, string]> = [
    ['Loading ...', ''],
    ['Loading ...', ''],
    ['A post – Site', 'Hello'],
    ['A post – Site', 'Hello'],
    ['A post – Site', 'Hello'],
    ['A post – Site', 'Hello'],
    ['A post – Site', 'Hello'],
  ];
  const ev = timeline({ frames });
  // v1's observation is the shell: an empty body at domcontentloaded
  assert.equal(committedStateAtDcl(ev).accept, false);
  const checks = Object.fromEntries(instrumentationChecks(ev).map((c) => [c.name, c.ok]));
  assert.equal(checks['dcl-title-final'], false);
  assert.equal(checks['dcl-body-final'], false);
  // the title settles at the fourth sample (third is the first real title, fourth confirms it)
  assert.deepEqual(titleSettlement(ev), { t_ms: 682, title: 'A post – Site', wait_ms: 602 });
  assert.equal(checks['settled-title-final'], true);
  assert.equal(titleSettled(ev).accept, true);
});

test('the title can settle before the body commits: body stability waits for three equal samples', () => {
  const frames: Array<[string, string]> = [
    ['A post – Site', 'skeleton'],
    ['A post – Site', 'skeleton'],
    ['A post – Site', 'half'],
    ['A post – Site', 'full text'],
    ['A post – Site', 'full text'],
    ['A post – Site', 'full text'],
    ['A post – Site', 'full text'],
  ];
  const ev = timeline({ frames });
  const checks = Object.fromEntries(instrumentationChecks(ev).map((c) => [c.name, c.ok]));
  assert.equal(checks['settled-body-final'], false, 'the body at title settlement was not the final body');
  assert.deepEqual(bodyStability(ev), { t_ms: 82 + 5 * 200, wait_ms: 5 * 200 - 200 });
  assert.equal(checks['stable-body-final'], true);
});

test('a body that keeps changing is rejected once the bound passes', () => {
  const frames = Array.from({ length: 40 }, (_, i) => ['A post – Site', `tick ${i}`] as [string, string]);
  const ev = timeline({ frames });
  assert.equal(bodyStability(ev), null);
  assert.deepEqual(bodyStable(ev), { accept: false, latency_ms: null });
  // the same body from sample 30 on would be too late: past 5 s after the title settled
  const late = frames.map(([t, b], i) => [t, i >= 30 ? 'still' : b] as [string, string]);
  assert.equal(bodyStability(timeline({ frames: late })), null);
});

test('an empty body is never stable, an empty title never settles', () => {
  assert.equal(bodyStability(timeline({ frames: Array.from({ length: 8 }, () => ['T', ''] as [string, string]) })), null);
  assert.equal(titleSettlement(timeline({ frames: Array.from({ length: 8 }, () => ['', 'x'] as [string, string]) })), null);
});

test('a semantic negative (HTTP 200, a stable page saying nothing matched) passes transport and stability alike', () => {
  const ev = timeline({ frames: Array.from({ length: 8 }, () => ['Search Results – Site', 'Sorry, but nothing matched'] as [string, string]) });
  assert.equal(networkCompletion(ev).accept, true);
  assert.equal(bodyStable(ev).accept, true);
});

test('samples closer than the gap are flagged by the instrumentation checks', () => {
  const ev = timeline();
  ev.push({ t_ms: 83, source: 'dom', type: 'title', detail: { title: 'A post – Site' } });
  ev.sort((a, b) => a.t_ms - b.t_ms);
  assert.equal(instrumentationChecks(ev).find((c) => c.name === 'samples-spaced')!.ok, false);
  assert.equal(instrumentationChecks(timeline()).find((c) => c.name === 'samples-spaced')!.ok, true);
});
