// Amendment 7's speed rule in real traces, in both browsers: a row made under it keeps the moments
// the rule read, its replay at ×1 is the row's own outcome, and its flag is recomputable from the row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, type BrowserName } from '../../../pipeline/browser/launch.ts';
import { startFixtureServer } from '../../../fixtures/server.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';
import { layersPolicies } from '../../../pipeline/layers/policies/index.ts';
import { policyAgent } from '../../../pipeline/layers/policies/agent.ts';
import { runLayersTrace } from '../../../pipeline/layers/condition.ts';
import { MAIN_BOUNDARY_MS } from '../../../pipeline/layers/protocol.ts';
import { outcomeAt, speedSensitivity, timelineOfRow } from '../../../pipeline/layers/scoring.ts';

const tasks = generateLayersTasks();
const byId = (id: string) => tasks.find((t) => t.condition_id === id)!;
const slice = [['cards-state-01', 'semantic-recovery'], ['cards-state-01', 'verification-aware'], ['cards-access-01', 'selector-only'], ['cards-verification-02', 'verification-aware']] as const;

for (const name of ['chromium', 'firefox'] as BrowserName[]) {
  test(`${name}: rows under the speed rule keep their moments, and the rule recomputes from them`, async (t) => {
    const { browser } = await launchBrowser(name);
    const server = await startFixtureServer();
    t.after(async () => { await browser.close(); await server.close(); });
    for (const [id, policy] of slice) {
      const task = byId(id);
      const row = await runLayersTrace({ browser, server, task, agent: policyAgent(layersPolicies[policy]!, task), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS }, flagRule: 'speed' });
      const label = `${name} ${id} ${policy}`;
      assert.equal(row.error, null, label);
      assert.equal(row.flag_rule, 'speed', label);
      assert.ok(row.moments, label);
      const timeline = timelineOfRow({ arm: 'main', horizon_ms: row.horizon_ms, moments: row.moments! });
      assert.deepEqual(outcomeAt(timeline, 1), { as: row.apparent_success, vts: row.vts }, `${label}: the replay at ×1 is the scored outcome`);
      assert.equal(speedSensitivity(timeline).timingSensitive, row.timing_sensitive, `${label}: the flag follows from the row`);
      if (policy === 'verification-aware') {
        // it returns only after reading the commit back: its success follows no machine speed
        assert.equal(row.vts, true, label);
        assert.ok(row.moments!.confirmed !== null && row.moments!.confirmed >= row.moments!.commits[0]!.at, `${label}: read back after the commit`);
        assert.equal(row.timing_sensitive, false, label);
      }
      if (policy === 'semantic-recovery') assert.ok(row.moments!.success_seen !== null, `${label}: it saw its success`);
      if (policy === 'selector-only') assert.ok(row.moments!.look && row.moments!.reveal_after_ms === 70, `${label}: its one look and the surface's hold are kept`);
    }
  });
}
