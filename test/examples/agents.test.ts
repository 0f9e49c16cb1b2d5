// The example outside agents of examples/agents/ really do a task, each with its own client:
// Puppeteer over the browser's WebSocket (CDP in Chromium, WebDriver BiDi in Firefox), and
// Python's Playwright over connect_over_cdp (Chromium only). Each runs on one condition per app
// it can do, in each browser it can drive, scored by the server. Their dependencies are installed apart
// (docs/score-your-agent.md); make test installs them first (pipeline/steps/with-sites.ts
// --examples); run alone without them, the test fails and names the command that installs them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { generateLayersTasks } from '../../pipeline/layers/generate.ts';
import { MAIN_BOUNDARY_MS } from '../../pipeline/layers/protocol.ts';
import { processAgent } from '../../pipeline/agents/process-agent.ts';
import { runAgentTrace } from '../../pipeline/agents/agent-trace.ts';

const tasks = generateLayersTasks();
const scoring = { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS } as const;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-examples-'));
let server: FixtureServer;
before(async () => { server = await startFixtureServer(); });
after(() => server.close());

const examples = [
  {
    name: 'puppeteer',
    installed: fs.existsSync(path.join(codeRoot, 'examples/agents/puppeteer/node_modules/puppeteer-core')),
    install: 'npm ci --prefix examples/agents/puppeteer',
    command: `${JSON.stringify(process.execPath)} examples/agents/puppeteer/agent.mjs`,
    conditions: ['cards-baseline-01', 'profile-baseline-01', 'modal-baseline-01'],
    browsers: ['chromium', 'firefox'],
  },
  {
    name: 'python',
    installed: fs.existsSync(path.join(codeRoot, 'examples/agents/python/.venv/bin/python')),
    install: 'python3 -m venv examples/agents/python/.venv && examples/agents/python/.venv/bin/pip install -r examples/agents/python/requirements.txt',
    command: 'examples/agents/python/.venv/bin/python examples/agents/python/agent.py',
    conditions: ['cards-baseline-01'],
    browsers: ['chromium'], // connect_over_cdp: Firefox gives no CDP endpoint
  },
] as const;

for (const example of examples) for (const browserName of example.browsers) {
  test(`examples/agents/${example.name} does a baseline task in ${browserName} and the server agrees`, async () => {
    assert.ok(example.installed, `examples/agents/${example.name} is not installed: ${example.install}`);
    const agent = processAgent({ command: example.command, cwd: codeRoot, timeoutMs: 60_000, stderrPath: () => path.join(dir, `${example.name}.stderr`) });
    for (const id of example.conditions) {
      const out = await runAgentTrace({ browserName, server, task: tasks.find((t) => t.condition_id === id)!, agent, scoring });
      const stderr = fs.existsSync(path.join(dir, `${example.name}.stderr`)) ? fs.readFileSync(path.join(dir, `${example.name}.stderr`), 'utf8').slice(-2000) : '';
      assert.equal(out.error, null, `${id}: ${out.error}\n${stderr}`);
      assert.equal(out.claim?.done, true, `${id}: ${JSON.stringify(out.claim)}\n${stderr}`);
      assert.equal(out.vts, true, `${id}: the server holds ${JSON.stringify(out.persisted.value)}`);
      assert.equal(out.apparent_success, true, `${id}: the page showed its success indication`);
      assert.ok((out.actions ?? 0) >= 2, 'it reports its actions');
    }
  });
}
