// Each scenario family of the controlled app, in real Chromium and real Firefox (one rep, one
// delay, a shorter window): the recorded events must show the family's mechanism, the app must
// commit exactly when the registered outcome is a success, and every instrumentation gate holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserNames, launchBrowser } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';
import { generateTasks, type EvidenceTask } from '../../../fixtures/evidence/tasks.ts';
import { runCondition } from '../../../pipeline/evidence/condition.ts';
import { chainsOf, correlate, type Chain } from '../../../verifier/src/correlate.ts';
import { runGates, streamGapMs } from '../../../pipeline/evidence/gates.ts';
import { pathOf, type EvidenceEvent } from '../../../verifier/src/events.ts';

const tasks: EvidenceTask[] = generateTasks()
  .filter((t) => t.rep === 0 && t.delay_ms === 50)
  .map((t) => ({ ...t, horizon_ms: 700 }));

const app = (events: EvidenceEvent[], type: string) => events.find((e) => e.source === 'app' && e.type === type);

/** What each family must show in its recorded events (the correlated target chain c). */
const mechanisms: Record<string, (c: Chain, events: EvidenceEvent[], serverSeen: boolean) => void> = {
  success: (c) => assert.deepEqual([c.terminal?.type, c.terminal?.status], ['finished', 200]),
  'http-5xx': (c) => assert.deepEqual([c.terminal?.type, c.terminal?.status], ['finished', 503]),
  'semantic-rejected': (c) => assert.deepEqual([c.terminal?.type, c.terminal?.status], ['finished', 200]),
  'semantic-empty': (c) => assert.deepEqual([c.terminal?.type, c.terminal?.status], ['finished', 200]),
  aborted: (c) => {
    assert.equal(c.terminal?.type, 'failed', 'an aborted body is recorded as a loading failure');
    assert.notEqual(c.terminal?.response_t_ms, null, 'after the response started');
  },
  redirect: (c, events) => {
    assert.deepEqual(c.hops.map((h) => pathOf(h.url)), ['/api/legacy/save', '/api/v1/save', '/api/save'], 'the redirect chain is correlated to its action');
    assert.deepEqual(events.filter((e) => e.type === 'redirect' && e.request_id === c.request_id).map((e) => e.status), [307, 307]);
    assert.equal(c.terminal?.status, 200);
  },
  streamed: (c) => assert.ok(c.terminal!.t_ms - c.terminal!.response_t_ms! >= streamGapMs, 'response started long before it completed'),
  cached: (c, _events, serverSeen) => {
    assert.equal(serverSeen, false, 'the server never saw the action\'s read');
    assert.notEqual(c.from_cache, false, 'no driver may claim it was not cached');
    assert.equal(c.terminal?.status, 200);
  },
  'service-worker': (c, events, serverSeen) => {
    assert.ok(c.from_service_worker === true || (c.from_service_worker === null && app(events, 'ready')?.detail?.controlled_by_service_worker === true));
    assert.ok(serverSeen, 'the worker forwarded the request to the server');
  },
  background: (c, events) => {
    const others = chainsOf(events).filter((x) => x.request_id !== c.request_id && x.terminal?.type === 'finished' && x.terminal.t_ms >= 0);
    assert.ok(others.some((x) => x.terminal!.t_ms < c.terminal!.t_ms), 'background traffic completed before the target');
    assert.ok(others.some((x) => pathOf(x.hops[0]!.url) === '/api/save' && x.hops[0]!.method === 'GET'), 'a GET to the target path ran in the window');
    assert.equal(c.hops[0]!.method, 'POST', 'and was not correlated');
  },
};

for (const name of browserNames) {
  test(`every scenario family records its mechanism in ${name}`, async (t) => {
    const launched = await launchBrowser(name);
    const server = await startFixtureServer();
    const rows: Awaited<ReturnType<typeof runCondition>>[] = [];
    try {
      for (const task of tasks) {
        const row = await runCondition(launched, server, task);
        rows.push(row);
        await t.test(task.scenario, () => {
          const c = correlate(row.events, task.target);
          assert.equal(c.kind, 'correlated', 'exactly one request is correlated to the action');
          if (c.kind !== 'correlated') return;
          mechanisms[task.scenario]!(c.chain, row.events, c.server_seen);
          // the app commits exactly when the registered outcome is a success
          assert.equal(app(row.events, 'commit') !== undefined, task.truth === 'success');
          assert.equal(app(row.events, 'reject') !== undefined, task.truth === 'failure');
        });
      }
    } finally {
      await launched.browser.close();
      await server.close();
    }
    for (const gate of runGates(rows)) {
      assert.deepEqual(gate.failed, [], `gate ${gate.id}`);
      assert.ok(gate.checked > 0, `gate ${gate.id} exercised`);
    }
  });
}
