// For each app and layer, the smallest slice that shows the three reference policies apart, in
// real Chromium: one condition (the highest severity; baseline's first) × the three policies.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../../../pipeline/lib/browser/launch.ts';
import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../../pipeline/lib/tasks/layers.ts';
import { referencePolicies } from '../../../../pipeline/lib/policies/layers/index.ts';
import { runLayersTrace, type LayersOutcome } from '../../../../pipeline/lib/layers/trace.ts';
import { MAIN_BOUNDARY_MS } from '../../../../pipeline/lib/layers/protocol.ts';
import { templates, layers, type Layer } from '../../../../fixtures/layers-task.ts';

let browser: Browser;
let server: FixtureServer;
const tasks = generateLayersTasks();

before(async () => {
  browser = (await launchBrowser('chromium')).browser;
  server = await startFixtureServer();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

type Expect = { vts: boolean; fc: boolean };
const ok: Expect = { vts: true, fc: false };
const missed: Expect = { vts: false, fc: false }; // no success shown, nothing persisted
const falseCompletion: Expect = { vts: false, fc: true };

// [selector-only, semantic-recovery, verification-aware], from the design of each layer
const expected: Record<Layer, [Expect, Expect, Expect]> = {
  baseline: [ok, ok, ok],
  access: [missed, ok, ok],
  perception: [falseCompletion, ok, ok], // selector-only saves the first look-alike and sees its success
  action: [missed, ok, ok],
  state: [falseCompletion, falseCompletion, ok],
  verification: [falseCompletion, falseCompletion, ok],
};

for (const template of templates) {
  for (const layer of layers) {
    const id = `${template}-${layer}-${layer === 'baseline' ? '01' : '03'}`;
    test(`${id}: selector-only / semantic-recovery / verification-aware`, async () => {
      const task = tasks.find((t) => t.condition_id === id)!;
      const outcomes: LayersOutcome[] = [];
      for (const policy of referencePolicies) {
        outcomes.push(await runLayersTrace({ browser, server, task, policy, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } }));
      }
      outcomes.forEach((o, i) => {
        const what = `${referencePolicies[i]!.name} on ${id}`;
        assert.equal(o.error, null, `${what}: ${o.error}`);
        assert.equal(o.vts, expected[layer][i]!.vts, `${what}: vts (persisted ${JSON.stringify(o.persisted.value)})`);
        assert.equal(o.false_completion, expected[layer][i]!.fc, `${what}: false completion`);
        assert.equal(o.false_completion, o.apparent_success && !o.vts);
      });
      // recovery and verification cost actions: verification-aware never acts less than semantic recovery
      assert.ok(outcomes[2]!.actions >= outcomes[1]!.actions);
    });
  }
}
