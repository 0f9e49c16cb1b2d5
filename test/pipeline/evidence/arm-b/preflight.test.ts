// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { freeze } from '../../../../pipeline/kernel/ledger.ts';
import { excludeSuperseded, preflight } from '../../../../pipeline/evidence/arm-b/preflight.ts';
import { protocolChain, readArmBProtocols } from '../../../../pipeline/evidence/arm-b/protocol.ts';

let tmp = '';
const p = (...parts: string[]) => path.join(tmp, ...parts);
const manifestFile = () => p('data/tasks/arm-b/manifest.json');
const origin = 'http://127.0.0.1:9';

function writeManifest(extra = '') {
  fs.mkdirSync(p('data/tasks/arm-b'), { recursive: true });
  fs.writeFileSync(manifestFile(), JSON.stringify({
    schema: 'production-manifest/1', id: 'tiny', origin, repetitions: 1, description: extra,
    cases: [{ id: 'a', url: `${origin}/a/`, kind: 'navigation', predicate: { status: { equals: 200 } } }],
  }));
}
function writeLabels(manifestSha = createHash('sha256').update(fs.readFileSync(manifestFile())).digest('hex')) {
  fs.mkdirSync(p('data/labels/arm-b'), { recursive: true });
  fs.writeFileSync(p('data/labels/arm-b/labels.json'), JSON.stringify({
    schema: 'production-labels/1', manifest: 'data/tasks/arm-b/manifest.json', manifest_sha256: manifestSha, origin,
    labeled_at: new Date().toISOString(), labeler: { method: 'direct-http', client: 'test' },
    cases: [{ case_id: 'a', kind: 'navigation', url: `${origin}/a/`, truth: 'success', status: 200, final_url: `${origin}/a/`, redirects: [], body_sha256: '0'.repeat(64), body_bytes: 0, clauses: [] }],
  }));
}
function writeRun(name: string, protocol: string, startedAt: string, dir = 'data/raw/evidence/arm-b', sample = 'tiny') {
  fs.mkdirSync(p(dir), { recursive: true });
  fs.writeFileSync(p(dir, name), JSON.stringify({ run_id: name, condition_id: `${sample}/a/0`, started_at: startedAt, protocol }) + '\n');
}
function writeProtocol(file: string, id: string, version: string, supersedes: string, samples = '') {
  fs.mkdirSync(p('prereg'), { recursive: true });
  fs.writeFileSync(p('prereg', file), `---\nid: ${id}\nstudy: evidence\narm: arm-b\nversion: ${version}\nsupersedes: ${supersedes}\n${samples ? `samples: [${samples}]\n` : ''}---\n\n## Registered policies\n\n- \`domcontentloaded\`\n`);
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-preflight-'));
  process.env.RSTACK_ROOT = tmp;
  writeProtocol('evidence-arm-b.md', 'evidence-arm-b', '1', 'null');
  writeManifest();
});
afterEach(() => { delete process.env.RSTACK_ROOT; fs.rmSync(tmp, { recursive: true, force: true }); });

test('missing labels: refused, with what to do', async () => {
  const { entry } = await freeze('manifest only');
  await assert.rejects(preflight(manifestFile(), entry), /no truth labels at data\/labels\/arm-b\/labels.json.*make label-arm-b/s);
});

test('labels not in the ledger head: refused', async () => {
  const { entry } = await freeze('manifest only');
  writeLabels();
  await assert.rejects(preflight(manifestFile(), entry), /labels.json is not in the ledger head/);
});

test('labels made from an older manifest: refused', async () => {
  writeLabels('f'.repeat(64));
  const { entry } = await freeze('stale labels');
  await assert.rejects(preflight(manifestFile(), entry), /made from another version of data\/tasks\/arm-b\/manifest.json/);
});

test('labels frozen after telemetry of the sample existed: refused; before it: accepted', async () => {
  writeLabels();
  const { entry } = await freeze('labels');
  const ready = await preflight(manifestFile(), entry);
  assert.equal(ready.labels.cases[0]!.truth, 'success');
  writeRun('early.jsonl', 'evidence-arm-b', '2000-01-01T00:00:00.000Z', 'data/excluded/evidence/arm-b');
  await assert.rejects(preflight(manifestFile(), entry), /first frozen at .* after data\/excluded\/evidence\/arm-b\/early.jsonl had started/);
});

test('a manifest outside the frozen roots is refused', async () => {
  writeLabels();
  const { entry } = await freeze('labels');
  const outside = p('elsewhere.json');
  fs.copyFileSync(manifestFile(), outside);
  await assert.rejects(preflight(outside, entry), /elsewhere.json is not in the ledger head/);
});

test('runs under a superseded protocol move to data/excluded/ with the reason; runs under the current one stay', () => {
  writeRun('evidence-arm-b-tiny-firefox.jsonl', 'evidence-arm-b', '2030-01-01T00:00:00.000Z');
  assert.deepEqual(excludeSuperseded(protocolChain()), [], 'v1 in force: nothing is superseded');
  writeProtocol('evidence-arm-b-v1.1.md', 'evidence-arm-b.v1.1', '1.1', 'evidence-arm-b');
  writeRun('evidence-arm-b.v1.1-tiny-firefox.jsonl', 'evidence-arm-b.v1.1', '2030-01-02T00:00:00.000Z');
  const moved = excludeSuperseded(protocolChain());
  assert.deepEqual(moved.map((m) => [m.from, m.to]), [['data/raw/evidence/arm-b/evidence-arm-b-tiny-firefox.jsonl', 'data/excluded/evidence/arm-b/evidence-arm-b-tiny-firefox.jsonl']]);
  assert.ok(fs.existsSync(p('data/raw/evidence/arm-b/evidence-arm-b.v1.1-tiny-firefox.jsonl')));
  const reason = JSON.parse(fs.readFileSync(p('data/excluded/REASONS.jsonl'), 'utf8').trim());
  assert.match(reason.reason, /superseded protocol: recorded under evidence-arm-b .*evidence-arm-b.v1.1 .* is in force/);
  assert.equal(reason.rows, 1);
});

test('an amendment for one sample supersedes that sample\'s runs only', () => {
  writeRun('evidence-arm-b-tiny-firefox.jsonl', 'evidence-arm-b', '2030-01-01T00:00:00.000Z');
  writeRun('evidence-arm-b-other-firefox.jsonl', 'evidence-arm-b', '2030-01-01T00:00:00.000Z', 'data/raw/evidence/arm-b', 'other');
  writeProtocol('evidence-arm-b-v1.1.md', 'evidence-arm-b.v1.1', '1.1', 'evidence-arm-b', 'tiny');
  assert.deepEqual(excludeSuperseded(protocolChain(readArmBProtocols(), 'other')), [], 'the amendment does not apply to the other sample');
  assert.deepEqual(excludeSuperseded(protocolChain(readArmBProtocols(), 'tiny')).map((m) => m.from), ['data/raw/evidence/arm-b/evidence-arm-b-tiny-firefox.jsonl']);
  assert.ok(fs.existsSync(p('data/raw/evidence/arm-b/evidence-arm-b-other-firefox.jsonl')), "the other sample's run stays registered");
});
