// Usable from outside: `npm pack` in verifier/ gives a tarball that installs into an empty project
// (with playwright-core, packed from this repository's node_modules: no registry needed), type-checks
// there, and verifies the controlled app's save in real Chromium, served by the fixture server on
// loopback. The project knows nothing of this repository but the tarball.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packedProject, run, typeChecks } from '../helpers/packed.ts';
import { executablePath, chromiumArgs } from '../../pipeline/browser/launch.ts';
import { sendJson, startFixtureServer } from '../../fixtures/server.ts';
import { evidenceApp } from '../../fixtures/evidence/app.ts';
import { generateTasks } from '../../fixtures/evidence/tasks.ts';


const script = `
import { chromium } from 'playwright-core';
import { attach, ContractError, transitions } from '@rstackbench/verifier';

const origin = process.env.ORIGIN;
const out = {};
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: JSON.parse(process.env.CHROMIUM_ARGS) });
try {
  const page = await browser.newPage();
  await page.goto(origin + '/');
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 10000 });
  const verifier = attach(page);
  const contract = {
    id: 'notes/save',
    action: () => page.click('#act'),
    request: { method: 'POST', path: '/api/save' },
    semantic: { kind: 'dom', success: 'html[data-app-state="committed"]', negative: ['html[data-app-state="rejected"]'] },
    reread: { read: async ({ request }) => (await request.get(origin + '/test/records')).json(), holds: (v) => v.records.length === 1 },
    timeoutMs: 3000,
  };
  try {
    await verifier.verify({ ...contract, request: { method: 'SEND', path: '/api/save' } });
  } catch (error) {
    out.malformed = { isContractError: error instanceof ContractError, field: error.field };
  }
  out.record = await verifier.verify(contract);
  out.terminal = Object.keys(transitions).filter((s) => Object.keys(transitions[s]).length === 0);
  verifier.detach();
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
`;

const typed = `
import type { Page } from 'playwright-core';
import { attach, type ActionContract, type EvidenceRecord } from '@rstackbench/verifier';
export async function save(page: Page): Promise<EvidenceRecord['state']> {
  const contract: ActionContract = {
    id: 'save', action: () => page.click('#act'), request: { method: 'POST', path: '/api/save' },
    semantic: { kind: 'event', success: { source: 'app', type: 'commit' } }, timeoutMs: 1000,
  };
  return (await attach(page).verify(contract)).state;
}
`;

test('the packed verifier installs into an empty project, type-checks there, and verifies a save in Chromium', { timeout: 240_000 }, async (t) => {
  const server = await startFixtureServer();
  t.after(async () => { await server.close(); });
  // the tarballs: the verifier (its prepack builds dist/ with tsc), and playwright-core as installed here
  const { project } = await packedProject(t, 'verifier', { offline: true });

  // its types, from outside
  await typeChecks(project, typed);

  // the controlled app's success condition, and a read of the server's records for the re-read
  const task = generateTasks().find((x) => x.scenario === 'success' && x.rep === 0 && x.delay_ms === 50)!;
  const app = evidenceApp(task);
  server.load({ ...app, routes: { ...app.routes, 'GET /test/records': (_req, res) => sendJson(res, 200, app.stateAt()) } });
  fs.writeFileSync(path.join(project, 'check.mjs'), script);
  const { stdout } = await run(process.execPath, ['check.mjs'], {
    cwd: project, encoding: 'utf8', timeout: 60_000,
    env: { ...process.env, ORIGIN: server.origin, CHROMIUM: executablePath('chromium'), CHROMIUM_ARGS: JSON.stringify(chromiumArgs) },
  });
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  assert.deepEqual(out.malformed, { isContractError: true, field: 'request.method' });
  assert.equal(out.record.state, 'closed', out.record.reason);
  assert.deepEqual(out.record.transitions.map((x: { to: string }) => x.to), ['dispatched', 'ui-observed', 'correlated', 'transport-resolved', 'semantic-checked', 're-read', 'closed']);
  assert.equal((app.stateAt() as { records: string[] }).records.length, 1, 'the server persisted the save the record closed');
  assert.deepEqual(out.terminal, ['closed', 'failed', 'ambiguous']);
});
