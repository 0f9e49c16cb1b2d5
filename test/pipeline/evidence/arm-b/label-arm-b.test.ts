// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { labelArmB } from '../../../../pipeline/evidence/arm-b/label-arm-b.ts';
import { readLabels } from '../../../../pipeline/evidence/arm-b/manifest.ts';

let server: http.Server;
let origin = '';
let searchFinds = false;
let tmp = '';

before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/a/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>A</title><p>alpha</p>');
    if (req.url?.startsWith('/?s=')) return res.writeHead(200, { 'content-type': 'text/html' }).end(searchFinds ? '<p>1 result</p>' : '<p>nothing matched</p>');
    res.writeHead(404).end('<title>Not found</title>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-label-'));
  process.env.RSTACK_ROOT = tmp;
  fs.mkdirSync(path.join(tmp, 'data/tasks/arm-b'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'data/tasks/arm-b/manifest.json'), JSON.stringify({
    schema: 'production-manifest/1', id: 'tiny', origin, repetitions: 2,
    cases: [
      { id: 'a', url: `${origin}/a/`, kind: 'navigation', predicate: { text: { contains: 'alpha' } } },
      { id: 'b', url: `${origin}/b/`, kind: 'http-404', predicate: { status: { equals: 200 } } },
      { id: 's', url: `${origin}/?s=q`, kind: 'semantic-negative', predicate: { text: { not_contains: 'nothing matched' } } },
    ],
  }));
});
after(() => { server.close(); delete process.env.RSTACK_ROOT; fs.rmSync(tmp, { recursive: true, force: true }); });

test('labels are written once, bound to the manifest hash, and left alone while the site says the same', async () => {
  const first = await labelArmB();
  assert.equal(first.changed, true);
  assert.equal(first.file, path.join(tmp, 'data/labels/arm-b/labels.json'));
  const onDisk = readLabels(first.file);
  assert.equal(onDisk.manifest, 'data/tasks/arm-b/manifest.json');
  assert.deepEqual(onDisk.cases.map((c) => c.truth), ['success', 'failure', 'failure']);
  const bytes = fs.readFileSync(first.file, 'utf8');
  const again = await labelArmB();
  assert.equal(again.changed, false);
  assert.equal(fs.readFileSync(first.file, 'utf8'), bytes, 'an unchanged labeling does not touch the frozen file');
  assert.equal((await labelArmB({ check: true })).changed, false);
});

test('when the site changes, --check fails and labeling refuses a sample that no longer fits its design', async () => {
  searchFinds = true;
  try {
    await assert.rejects(labelArmB({ check: true }), /the site does not match the sample's design[\s\S]*s \(semantic-negative/);
  } finally {
    searchFinds = false;
  }
});
