// For each app and layer, the smallest slice that shows the three reference policies apart, in
// real Chromium: one condition (the highest severity; baseline's first) × the three policies.
// The same slice of the card app runs in Firefox ESR over WebDriver BiDi (the cross-engine
// replication of issue 5); the full Firefox matrix is `make run-layers BROWSER=firefox`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer, type FixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { referencePolicies } from '../../../pipeline/layers/policies/index.ts';
import { runLayersTrace, type LayersOutcome } from '../../../pipeline/layers/condition.ts';
import type { AgentResult } from '../../../pipeline/agents/contract.ts';
import { claimingAgent } from '../../../pipeline/layers/policies/agent.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';
import { templates, layers, type Layer } from '../../../core/layers.ts';

const tasks = generateLayersTasks();
const browsers: Partial<Record<BrowserName, Browser>> = {};
let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
});
after(async () => {
  for (const b of Object.values(browsers)) await b?.close();
  await server?.close();
});
const browserFor = async (name: BrowserName) => (browsers[name] ??= (await launchBrowser(name)).browser);

// claim: what each policy says at its end from what it checked (issue 47): selector-only that it
// activated the control, semantic recovery that the success showed, verification-aware that the
// summary read back the state
type Expect = { vts: boolean; fc: boolean; claim: boolean };
const ok: Expect = { vts: true, fc: false, claim: true };
const missed: Expect = { vts: false, fc: false, claim: false }; // no success shown, nothing persisted
const unseenClick: Expect = { vts: false, fc: false, claim: true }; // selector-only clicked once (swallowed): no success shown, yet it claims done
const falseCompletion: Expect = { vts: false, fc: true, claim: true };

// [selector-only, semantic-recovery, verification-aware], from the design of each layer
const expected: Record<Layer, [Expect, Expect, Expect]> = {
  baseline: [ok, ok, ok],
  access: [missed, ok, ok],
  perception: [falseCompletion, ok, ok], // selector-only saves the first look-alike and sees its success
  action: [unseenClick, ok, ok],
  state: [falseCompletion, falseCompletion, ok],
  verification: [falseCompletion, falseCompletion, ok],
};

const slices: [BrowserName, readonly string[]][] = [['chromium', templates], ['firefox', ['cards']]];
for (const [browserName, sliceTemplates] of slices) for (const template of sliceTemplates) {
  for (const layer of layers) {
    const id = `${template}-${layer}-${layer === 'baseline' ? '01' : '03'}`;
    test(`${browserName} ${id}: selector-only / semantic-recovery / verification-aware`, async () => {
      const browser = await browserFor(browserName);
      const task = tasks.find((t) => t.condition_id === id)!;
      const outcomes: (LayersOutcome & { result: AgentResult })[] = [];
      for (const policy of referencePolicies) {
        outcomes.push(await runLayersTrace({ browser, server, task, agent: claimingAgent(policy, task), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } }));
      }
      outcomes.forEach((o, i) => {
        const what = `${referencePolicies[i]!.name} on ${id}`;
        assert.equal(o.error, null, `${what}: ${o.error}`);
        assert.equal(o.vts, expected[layer][i]!.vts, `${what}: vts (persisted ${JSON.stringify(o.persisted.value)})`);
        assert.equal(o.false_completion, expected[layer][i]!.fc, `${what}: false completion`);
        assert.equal(o.false_completion, o.apparent_success && !o.vts);
        assert.equal(o.result.claim?.done, expected[layer][i]!.claim, `${what}: its claim (${o.result.claim?.message})`);
      });
      // recovery and verification cost actions: verification-aware never acts less than semantic recovery
      assert.ok(outcomes[2]!.actions! >= outcomes[1]!.actions!);
    });
  }
}
