// The selector-only and semantic-recovery policies wrapped by the verifier, on one condition of each
// layer of the cards app and the baseline of the other two, in Chromium: a claim of done is never
// false (claimed done implies the server persisted it at the boundary), and on a baseline both claim done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { verifiedAgent, verifiedPolicies } from '../../../pipeline/layers/policies/verified.ts';
import { runLayersTrace } from '../../../pipeline/layers/condition.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';

const tasks = generateLayersTasks();
const firstOf = (template: string, layer: string) => tasks.find((t) => t.template === template && t.layer === layer && t.severity === (layer === 'baseline' ? 0 : 2))!;
const chosen = [
  ...['baseline', 'access', 'perception', 'action', 'state', 'verification'].map((l) => firstOf('cards', l)),
  firstOf('profile', 'baseline'),
  firstOf('modal', 'baseline'),
];

test('verified policies claim done only on a persisted save (Chromium, one condition per layer)', { timeout: 300_000 }, async (t) => {
  const { browser } = await launchBrowser('chromium');
  const server = await startFixtureServer();
  t.after(async () => { await browser.close(); await server.close(); });
  const scoring = { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const;
  for (const policy of Object.values(verifiedPolicies)) {
    for (const task of chosen) {
      const out = await runLayersTrace({ browser, server, task, agent: verifiedAgent(policy, task), scoring });
      const label = `${policy.name} ${task.condition_id}: ${out.result.claim?.message ?? out.result.error}`;
      assert.equal(out.result.error, null, label);
      if (out.result.claim!.done) assert.equal(out.vts, true, `claimed done, not persisted: ${label}`);
      if (task.layer === 'baseline') assert.equal(out.result.claim!.done, true, label);
    }
  }
});
