// make demo: one condition end to end — the first baseline configuration-card task, in Chromium
// (or BROWSER=firefox), by the semantic-recovery policy — and print its trace row.
// Reads: the ledger (gate) and data/tasks/layers.jsonl. Writes: nothing (the row is printed).
import { main } from '../../core/cli.ts';
import { validate } from '../../core/validate.ts';
import { UsageError } from '../../core/errors.ts';
import { startFixtureServer } from '../../fixtures/server.ts';
import { gate } from '../kernel/gate.ts';
import { readLayersTasks } from './read-tasks.ts';
import { launchBrowser, parseBrowserName } from '../browser/launch.ts';
import { layersPolicies } from './policies/index.ts';
import { runLayersTrace } from './condition.ts';
import { policyAgent } from './policies/agent.ts';
import { MAIN_BOUNDARY_MS } from './protocol.ts';

await main({
  name: 'make demo',
  summary: 'run one baseline configuration-card condition in a real browser and print its trace row',
  options: {
    browser: { type: 'string', default: 'chromium', help: 'chromium or firefox' },
    condition: { type: 'string', default: 'cards-baseline-01', help: 'which condition of data/tasks/layers.jsonl' },
    policy: { type: 'string', default: 'semantic-recovery', help: 'selector-only, semantic-recovery or verification-aware' },
  },
  async run(values) {
    const { ledgerHead } = await gate();
    const browserName = parseBrowserName(values.browser);
    const task = readLayersTasks().find((t) => t.condition_id === values.condition);
    if (!task) throw new UsageError(`no condition ${values.condition} in data/tasks/layers.jsonl`);
    const policy = layersPolicies[values.policy!];
    if (!policy) throw new UsageError(`unknown policy ${values.policy}: ${Object.keys(layersPolicies).join(', ')}`);
    const launched = await launchBrowser(browserName);
    const server = await startFixtureServer();
    try {
      const { result: _result, ...outcome } = await runLayersTrace({ browser: launched.browser, server, task, agent: policyAgent(policy, task), scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } });
      const row = {
        schema: 'trace/1',
        study: 'layers',
        arm: 'main',
        run_id: 'demo',
        condition_id: task.condition_id,
        policy: policy.name,
        browser: { name: launched.name, version: launched.version },
        ledger_head: ledgerHead,
        ...outcome,
        smoke: true,
      };
      validate('trace', row, { file: 'demo row' });
      process.stdout.write(JSON.stringify(row) + '\n');
    } finally {
      await launched.browser.close();
      await server.close();
    }
  },
});
