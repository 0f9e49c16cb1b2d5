// The runner end to end on a tiny loopback site, in Firefox: the gate, labels, a registered run
// under v1, an amendment, and the rerun that moves the v1 run to data/excluded/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runArmB, formatRun, checkArmBWorkers, ARM_B_REGISTERED_WORKERS } from '../../../../pipeline/evidence/arm-b/run-arm-b.ts';
import { labelArmB } from '../../../../pipeline/evidence/arm-b/label-arm-b.ts';
import { freeze } from '../../../../pipeline/kernel/ledger.ts';
import { readJsonl } from '../../../../core/jsonl.ts';
import { GateError, UsageError } from '../../../../core/errors.ts';
import { readFrontMatter } from '../../../../core/front-matter.ts';
import { codeRoot } from '../../../../core/paths.ts';

let server: http.Server;
let origin = '';
let tmp = '';
let searchFinds = false;
const hits: string[] = [];
const p = (...parts: string[]) => path.join(tmp, ...parts);
const protocol = (file: string, id: string, version: string, supersedes: string, policies: string[]) =>
  fs.writeFileSync(p('prereg', file), `---\nid: ${id}\nstudy: evidence\narm: arm-b\nversion: ${version}\nsupersedes: ${supersedes}\n---\n\n## Registered policies\n\n${policies.map((x) => `- \`${x}\``).join('\n')}\n`);

before(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/post/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Post</title><p>the post</p>');
    if (req.url?.startsWith('/?s=')) return res.writeHead(200, { 'content-type': 'text/html' }).end(searchFinds ? '<title>Search</title><p>one result</p>' : '<title>Search</title><p>nothing matched</p>');
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>no such page</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-run-'));
  process.env.RSTACK_ROOT = tmp;
  fs.mkdirSync(p('prereg'));
  fs.mkdirSync(p('data/tasks/arm-b'), { recursive: true });
  fs.writeFileSync(p('data/tasks/arm-b/manifest.json'), JSON.stringify({
    schema: 'production-manifest/1', id: 'tiny', origin, repetitions: 1,
    cases: [
      { id: 'post', url: `${origin}/post/`, kind: 'navigation', predicate: { text: { contains: 'the post' } } },
      { id: 'gone', url: `${origin}/gone/`, kind: 'http-404', predicate: { status: { equals: 200 } } },
      { id: 'find', url: `${origin}/?s=x`, kind: 'semantic-negative', predicate: { text: { not_contains: 'nothing matched' } } },
    ],
  }));
  protocol('evidence-arm-b.md', 'evidence-arm-b', '1', 'null', ['domcontentloaded', 'network-completion']);
});
after(() => { server.close(); delete process.env.RSTACK_ROOT; fs.rmSync(tmp, { recursive: true, force: true }); });

test('the amendment history in a real browser: refusals first, v1, then v1.1 supersedes it', async () => {
  // nothing frozen: the gate refuses before anything is sent
  await assert.rejects(runArmB(), (e: unknown) => e instanceof GateError && e.exitCode === 3);
  await freeze('v1 + manifest');
  await assert.rejects(runArmB(), /no truth labels/);
  assert.equal(hits.length, 0, 'no request reached the site before the labels existed');
  await labelArmB();
  await assert.rejects(runArmB(), GateError, 'labels written but not frozen: the gate sees an added file');
  await freeze('labels');
  hits.length = 0;

  const v1 = await runArmB({ windowMs: 1000 });
  assert.equal(v1.protocol, 'evidence-arm-b');
  assert.ok(hits.every((h) => h.startsWith('GET ')));
  const rows = readJsonl<Record<string, any>>(p(v1.file), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => [r.case_id, r.scenario, r.truth, r.rep]), [['post', 'navigation', 'success', 0], ['gone', 'http-404', 'failure', 0], ['find', 'semantic-negative', 'failure', 0]]);
  assert.deepEqual(Object.keys(rows[0]!.verdicts), ['domcontentloaded', 'network-completion']);
  const byCase = Object.fromEntries(rows.map((r) => [r.case_id, r.verdicts['network-completion'].accept]));
  assert.deepEqual(byCase, { post: true, gone: false, find: true }, 'transport accepts the 200s and rejects the 404');
  // the end-of-run screen is the analysis's production table on these rows: network completion
  // accepted the one success (1/1) and one of the two failures (1/2, the semantic negative)
  const screen = formatRun(v1);
  assert.match(screen, /semantic-negative\s+network-completion\s+1\s+1\s+0\s+1\s+0\s+1\/1 100\.0%.*1\/1 100\.0%/);
  assert.match(screen, /http-404\s+network-completion\s+1\s+1\s+0\s+1\s+0\s+0\/1 0\.0%.*0\/1 0\.0%/);
  assert.match(screen, /navigation\s+network-completion\s+1\s+1\s+1\s+0\s+0\s+1\/1 100\.0%/);
  assert.ok(v1.checks['document-request-correlated']!.of === 3 && v1.checks['document-request-correlated']!.failed === 0);

  // rerunning a complete run records nothing new
  assert.equal((await runArmB({ windowMs: 1000 })).written, 0);

  // an amendment, frozen: the v1 run is moved out with the reason, and v1.1 runs from zero
  protocol('evidence-arm-b-v1.1.md', 'evidence-arm-b.v1.1', '1.1', 'evidence-arm-b', ['network-completion', 'body-stable']);
  await assert.rejects(runArmB(), /differs from the ledger head|these files differ|this file differs/);
  await freeze('amendment v1.1');
  const v11 = await runArmB({ windowMs: 1500 });
  assert.equal(v11.protocol, 'evidence-arm-b.v1.1');
  assert.equal(v11.written, 3);
  assert.ok(!fs.existsSync(p(v1.file)));
  assert.ok(fs.existsSync(p('data/excluded/evidence/arm-b', path.basename(v1.file))));
  const reasons = fs.readFileSync(p('data/excluded/REASONS.jsonl'), 'utf8');
  assert.match(reasons, /superseded protocol: recorded under evidence-arm-b /);
  const data = fs.readFileSync(p('manifests/data.sha256'), 'utf8');
  assert.match(data, /data\/raw\/evidence\/arm-b\/evidence-arm-b.v1.1-tiny-firefox.jsonl/);
  assert.match(data, /data\/excluded\/evidence\/arm-b\/evidence-arm-b-tiny-firefox.jsonl/);

  // the site changed since the labels were frozen: refused before the browser starts
  searchFinds = true;
  await assert.rejects(runArmB({ windowMs: 1500, smoke: true }), /no longer gives the frozen labels[\s\S]*find: now 200 success/);
});

test('overlapping trials: a registered run takes what its sample\'s amendment allows (refused before anything is sent); a smoke run may overlap, one Firefox each, and writes every trial', async () => {
  searchFinds = false;
  hits.length = 0;
  // this sample has no overlap amendment: its registered runs are one trial at a time
  await assert.rejects(runArmB({ workers: 2, browsers: 2 }), (e: unknown) => e instanceof UsageError && e.exitCode === 2 && /arm-b \(tiny\) run takes at most 1 row at once \(prereg\/evidence-arm-b\.md\)/.test(e.message));
  assert.equal(hits.length, 0, 'nothing reached the site before the refusal');
  const smoke = await runArmB({ smoke: true, workers: 3, browsers: 3, windowMs: 1000 });
  assert.equal(smoke.written, 3);
  assert.deepEqual(smoke.rows.map((r) => r.case_id).sort(), ['find', 'gone', 'post']);
  for (const [name, c] of Object.entries(smoke.checks)) if (c.of) assert.equal(c.failed, 0, `${name} failed at 3 at once`);
  const byCase = Object.fromEntries(smoke.rows.map((r) => [r.case_id, r.verdicts['network-completion']!.accept]));
  assert.deepEqual(byCase, { post: true, gone: false, find: true }, 'the same verdicts as one at a time');
  const session = fs.readFileSync(p('data/runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.file?.includes('smoke')).at(-1);
  assert.equal(session.workers, 3);
  assert.equal(session.browsers, 3);
});

test('the WordPress front-end sample may overlap 4 trials, one Firefox process each, as its frozen amendment says; other samples one', () => {
  assert.doesNotThrow(() => checkArmBWorkers('wordpress-local', 4, 4, false));
  assert.throws(() => checkArmBWorkers('wordpress-local', 5, 5, false), (e: unknown) => e instanceof UsageError && /at most 4 rows at once \(prereg\/evidence-arm-b-overlap\.md\)/.test(e.message));
  assert.throws(() => checkArmBWorkers('wordpress-local', 4, 2, false), /at most 1 row at once in each browser process .*give --browsers 4/);
  assert.throws(() => checkArmBWorkers('wordpress-editor-b', 2, 2, false), /at most 1 row at once/);
  assert.doesNotThrow(() => checkArmBWorkers('wordpress-editor-b', 8, 1, true), 'a smoke run may take more');
  // each cap names an amendment of the repository that adds to Arm B for exactly that sample
  for (const [sample, { source }] of Object.entries(ARM_B_REGISTERED_WORKERS)) {
    const fm = readFrontMatter(path.join(codeRoot, source), source) as Record<string, unknown>;
    assert.equal(fm.amends, 'evidence-arm-b', source);
    assert.deepEqual(fm.samples, [sample], source);
  }
});
