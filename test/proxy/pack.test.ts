// shares the machine: it asserts what the packed proxy does to an app's writes and what its command prints, never a duration.
// Usable from outside: `npm pack` in proxy/ gives a tarball that installs into an empty project
// (its dependencies from the registry as any user gets them; playwright-core packed from this
// repository's node_modules), type-checks there, and runs a fault: an app of the project's own (a
// settings form and its write) behind the packed proxy under Verification at severity 1, in real
// Chromium. The page says "saved" after the first save while the app stores nothing; the second
// save reaches the app. Its command (the package's bin) lists every fault by name from its tables
// and refuses a layer they lack. The project knows nothing of this repository but the tarballs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { packedProject, run, typeChecks } from '../helpers/packed.ts';
import { executablePath, chromiumArgs } from '../../pipeline/browser/launch.ts';
import { layerNames, transportFaultNames } from '../../proxy/src/index.ts';


const script = `
import http from 'node:http';
import { chromium } from 'playwright-core';
import { startFaultProxy, compileSpec, ValidationError } from '@rstackbench/fault-proxy';

// the project's own app: a settings form, its write, and what it stored
const stored = [];
const app = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (req.method === 'POST' && url.pathname === '/save') {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      stored.push(new URLSearchParams(body).get('title'));
      res.writeHead(302, { location: '/form?saved=1', 'content-length': '0' });
      res.end();
    });
    return;
  }
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>Settings</title></head><body>'
    + (url.searchParams.get('saved') === '1' ? '<p id="notice">Settings saved.</p>' : '')
    + '<form method="post" action="/save"><input type="hidden" name="kind" value="settings">'
    + '<input name="title" value="outside"><input type="submit" id="submit" value="Save Changes"></form></body></html>';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
});
await new Promise((r) => app.listen(0, '127.0.0.1', r));
const origin = 'http://127.0.0.1:' + app.address().port;

const spec = {
  schema: 'fault-spec/1', family: 'outside-settings',
  target: { selector: '#submit', role: 'button', name: 'Save Changes' },
  pages: '^/form', write: { method: 'POST', path: '^/save$', form: { kind: '^settings$' } },
  success: { kind: 'redirect', status: 302, location: '/form?saved=1' },
};
const out = {};
try { compileSpec({ ...spec, pages: '(' }); } catch (error) { out.malformed = { isValidationError: error instanceof ValidationError, field: error.field, exitCode: error.exitCode }; }

const proxy = await startFaultProxy();
proxy.load({ spec, layer: 'verification', severity: 1, seed: 'outside' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM, args: [...JSON.parse(process.env.CHROMIUM_ARGS), '--proxy-server=' + proxy.url, '--proxy-bypass-list=<-loopback>'] });
try {
  const page = await browser.newPage();
  out.saves = [];
  for (let i = 0; i < 2; i += 1) {
    await page.goto(origin + '/form');
    await page.click('#submit');
    await page.waitForURL(/saved=1/);
    out.saves.push({ notice: await page.locator('#notice').count(), storedAfter: stored.length });
  }
} finally {
  await browser.close();
}
out.log = proxy.log.filter((e) => e.write).map((e) => e.action);
await proxy.reset();
await proxy.close();
app.close();
console.log(JSON.stringify(out));
`;

const typed = `
import { startFaultProxy, layerNames, type Condition, type FaultProxy, type ProxyEvent } from '@rstackbench/fault-proxy';
export async function held(condition: Condition): Promise<ProxyEvent['action'][]> {
  const proxy: FaultProxy = await startFaultProxy({ har: true });
  proxy.load(condition);
  const actions = proxy.log.map((e) => e.action);
  await proxy.close();
  return layerNames().includes(condition.layer) ? actions : [];
}
`;

test('the packed fault proxy installs into an empty project, type-checks there, runs a Verification fault on the project\'s own app in Chromium, and its command lists and checks every fault by name', { timeout: 300_000 }, async (t) => {
  // the tarballs: the proxy (its prepack builds dist/ with tsc), and playwright-core as installed here
  const { project, installed } = await packedProject(t, 'proxy', { offline: false });
  for (const file of ['dist/cli.js', 'schemas/fault-spec.schema.json', 'faults/layers.json', 'faults/transport.json', 'faults/page-fault.js']) {
    assert.ok(fs.existsSync(path.join(installed, file)), `the package ships ${file}`);
  }

  // its types, from outside
  await typeChecks(project, typed);

  // a fault on the project's own app: the first save answered by the proxy and never stored, the second stored
  fs.writeFileSync(path.join(project, 'check.mjs'), script);
  const { stdout } = await run(process.execPath, ['check.mjs'], {
    cwd: project, encoding: 'utf8', timeout: 90_000,
    env: { ...process.env, CHROMIUM: executablePath('chromium'), CHROMIUM_ARGS: JSON.stringify(chromiumArgs) },
  });
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!);
  assert.deepEqual(out.malformed, { isValidationError: true, field: 'pages', exitCode: 2 });
  assert.deepEqual(out.saves, [{ notice: 1, storedAfter: 0 }, { notice: 1, storedAfter: 1 }], 'saved shown twice; stored only after the second save');
  assert.deepEqual(out.log, ['dropped', 'pass']);

  // its command: every name from the tables, and a name they lack refused (exit 2) before anything starts
  const bin = path.join(project, 'node_modules', '.bin', 'rstackbench-fault-proxy');
  const listed = (await run(bin, ['--list'], { cwd: project, encoding: 'utf8' })).stdout;
  for (const name of [...layerNames(), ...transportFaultNames()]) assert.match(listed, new RegExp(`^  ${name} `, 'm'), name);
  fs.writeFileSync(path.join(project, 'spec.json'), JSON.stringify({ schema: 'fault-spec/1', family: 'f', target: { selector: '#s', role: 'button', name: 'Save' }, pages: '^/', write: { method: 'POST', path: '^/save$' }, success: { kind: 'redirect', status: 302, location: '/' } }));
  const refused = await run(bin, ['--spec', 'spec.json', '--layer', 'latency', '--severity', '1'], { cwd: project, encoding: 'utf8' }).then(() => null, (error: { code: number; stderr: string }) => error);
  assert.equal(refused?.code, 2);
  assert.match(refused!.stderr, /--layer "latency" is not a layer of node_modules\/@rstackbench\/fault-proxy\/faults\/layers\.json; its layers are baseline, access, perception, action, state, verification/);
});
