// The timing-sensitive rules of prereg/layers-amendment-4.md, provoked on purpose in Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { selectorOnly } from '../../../pipeline/layers/policies/selector-only.ts';
import type { LayersPolicy } from '../../../pipeline/layers/policies/policy.ts';
import { policyAgent } from '../../../pipeline/layers/policies/agent.ts';
import { runLayersTrace } from '../../../pipeline/layers/condition.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';

const tasks = generateLayersTasks();
const byId = (id: string) => tasks.find((t) => t.condition_id === id)!;

test('a look-once policy that looks late at a late control is flagged; looking at once is not', async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  // the same open-loop policy, but slow to take its first look: 300 ms, past the 70 ms reveal
  const slowLook: LayersPolicy = { name: 'slow-look', run: async (ctx) => { await ctx.page.waitForTimeout(300); return selectorOnly.run(ctx); } };
  const task = byId('cards-access-01');
  assert.equal(task.faults.reveal_after_ms, 70);
  const scoring = { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const;

  const slow = await runLayersTrace({ browser, server, task, agent: policyAgent(slowLook, task), scoring });
  assert.equal(slow.vts, true, 'looking late, it found the control and saved');
  assert.equal(slow.timing_sensitive, true, 'and that outcome is flagged as following its speed');

  const quick = await runLayersTrace({ browser, server, task, agent: policyAgent(selectorOnly, task), scoring });
  assert.equal(quick.vts, false, 'looking at once, the control was not there');
  assert.equal(quick.timing_sensitive, false);

  const baseline = await runLayersTrace({ browser, server, task: byId('cards-baseline-01'), agent: policyAgent(slowLook, byId('cards-baseline-01')), scoring });
  assert.equal(baseline.vts, true);
  assert.equal(baseline.timing_sensitive, false, 'a surface there from the start is not a late surface');
});

test('State severity 1: the commit lands exactly 20 ms past a boundary anchored at the save', async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  const out = await runLayersTrace({ browser, server, task: byId('cards-state-01'), agent: policyAgent(selectorOnly, byId('cards-state-01')), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } });
  assert.equal(out.vts, false);
  assert.equal(out.apparent_success, true);
  assert.equal(out.timing_margin_ms, -20, 'commit at receipt + 120, boundary at receipt + 100');
  assert.equal(out.timing_sensitive, false);
});

test('a policy that returns long after its save is scored at its return, and a commit it waited into is flagged', async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  // selector-only that lingers 300 ms after its save: the 120 ms commit lands before it returns
  const lingering: LayersPolicy = { name: 'lingering', run: async (ctx) => { const claim = await selectorOnly.run(ctx); await ctx.page.waitForTimeout(300); return claim; } };
  const out = await runLayersTrace({ browser, server, task: byId('cards-state-01'), agent: policyAgent(lingering, byId('cards-state-01')), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } });
  assert.equal(out.boundary, 'return');
  assert.equal(out.vts, true, 'the commit landed while it lingered');
  assert.equal(out.timing_sensitive, true, 'and that success follows its slowness, so it is flagged');
});
