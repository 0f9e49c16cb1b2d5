// make run-agent on a throw-away frozen tree: a smoke slice with a scripted outside agent, written
// under runs/ and never into the record; a crashing agent's error rows and its stop; a registered run
// refused without the frozen prereg that names the agent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRow } from '../../../analysis/rows.ts';

const claimsDone = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(import.meta.dirname, 'scripts', 'claims-done.mjs'))}`;

test('a smoke run of an outside agent: one row per condition, its claim beside the server verdict, its stderr kept', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', '^cards-(baseline|state)-01$', '--agent', claimsDone, '--agent-name', 'claims-done']);
  assert.equal(run.exitCode, 0, run.stderr);
  // a smoke run is not the record: it writes under runs/<verb>-<agent>/, says so at its start and end, and touches no file of data/ or manifests/
  const folder = 'runs/run-agent-claims-done';
  assert.match(run.stderr, new RegExp(`^not a registered run: .* under ${folder}/ \\(git-ignored`, 'm'));
  assert.match(run.stderr, new RegExp(`^this run's files: ${folder}/`, 'm'));
  for (const recordFile of ['data/excluded', 'data/raw', 'data/runs.jsonl', 'manifests/data.sha256']) assert.equal(fs.existsSync(tree.file(recordFile)), false, `${recordFile} written`);
  assert.equal(fs.readFileSync(tree.file(`${folder}/data/runs.jsonl`), 'utf8').trim().split('\n').length, 2, 'its own run log: start and end');
  assert.ok(fs.existsSync(tree.file(`${folder}/manifests/data.sha256`)));
  const dir = tree.file(`${folder}/data/excluded/layers/agent`);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^layers-agent-claims-done-chromium-/);
  const rows = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => r.condition_id).sort(), ['cards-baseline-01', 'cards-state-01']);
  for (const r of rows) {
    assert.equal(r.arm, 'agent');
    assert.equal(r.policy, 'claims-done');
    assert.deepEqual(r.agent, { name: 'claims-done', command: claimsDone, sha256: null });
    assert.deepEqual(r.claim, { done: true });
    assert.equal(r.vts, false);
    assert.equal(r.false_completion, true, 'claimed done, not done');
    assert.equal(r.actions, null, 'it did not report its actions');
  }
  const stderrDir = path.join(dir, files[0]!.replace(/\.jsonl$/, '.stderr'));
  assert.deepEqual(fs.readdirSync(stderrDir).sort(), ['cards-baseline-01.log', 'cards-state-01.log']);
  assert.match(run.stdout, /agent_by_layer|claimed/);
  assert.match(run.stdout, new RegExp(`rows in ${folder}/data/excluded/layers/agent/layers-agent-claims-done-chromium-smoke-`));
});

const missingModule = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(import.meta.dirname, 'scripts', 'missing-module.mjs'))}`;
const threeConditions = '^cards-(baseline|state|access)-01$';

test('an agent that crashes at start (a missing module) gives an error row on each condition, and the run goes on and exits 0', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', threeConditions, '--agent', missingModule, '--agent-name', 'missing-module']);
  assert.equal(run.exitCode, 0, run.stderr);
  const folder = tree.file('runs/run-agent-missing-module');
  const dir = path.join(folder, 'data/excluded/layers/agent');
  const [file, ...others] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.deepEqual(others, [], 'no failed attempts: a crash is the agent\'s, not the harness\'s');
  const rows = readJsonl<LayersRow>(path.join(dir, file!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => r.condition_id).sort(), ['cards-access-01', 'cards-baseline-01', 'cards-state-01']);
  for (const r of rows) {
    assert.equal(r.claim, null);
    assert.match(r.error ?? '', /^crash: the agent exited with code 1/);
    assert.equal(r.false_completion, false);
  }
  assert.match(run.stderr, /3 conditions gave no claim/);
  // every file REASONS.jsonl names is there
  const reasons = readJsonl<{ file: string }>(path.join(folder, 'data/excluded/REASONS.jsonl'));
  assert.ok(reasons.length > 0);
  for (const r of reasons) assert.ok(fs.existsSync(path.join(folder, r.file)), `REASONS.jsonl names ${r.file}, which is not there`);
});

test('--max-agent-failures 2: a crashing agent stops the run after 2 conditions in a row, in one line with the end of its stderr', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', threeConditions, '--agent', missingModule, '--agent-name', 'missing-module', '--max-agent-failures', '2']);
  assert.equal(run.exitCode, 1, run.stderr);
  const stop = run.stderr.split('\n').filter((l) => l.startsWith('error: '));
  assert.equal(stop.length, 1, run.stderr);
  assert.match(stop[0]!, /stopped after 2 consecutive conditions whose agent gave no claim \(the last: crash: the agent exited with code 1/);
  assert.match(stop[0]!, /rstackbench-no-such-module/, "the agent's own stderr");
  const dir = tree.file('runs/run-agent-missing-module/data/excluded/layers/agent');
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(readJsonl<LayersRow>(path.join(dir, file!), { schema: 'trace' }).length, 2, 'the rows so far are kept; the third condition was not started');
});

test('a registered run needs a frozen prereg that names the agent', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--agent', claimsDone]);
  assert.equal(run.exitCode, 3, run.stderr);
  assert.match(run.stderr, /no frozen prereg\/agent-\*\.md registers/);
  assert.equal(fs.existsSync(tree.file('data/raw/layers/agent')) && fs.readdirSync(tree.file('data/raw/layers/agent')).length > 0, false, 'nothing written');
});

test('BROWSER=firefox: a smoke run of an outside agent in Firefox ESR, one row per condition', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--browser', 'firefox', '--only', '^cards-state-01$', '--agent', claimsDone, '--agent-name', 'claims-done']);
  assert.equal(run.exitCode, 0, run.stderr);
  const dir = tree.file('runs/run-agent-claims-done/data/excluded/layers/agent');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.match(files.join(), /^layers-agent-claims-done-firefox-/);
  const [row] = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.equal(row!.browser.name, 'firefox');
  assert.match(row!.browser.version, /^\d+\.\d+/);
  assert.deepEqual(row!.claim, { done: true });
  assert.equal(row!.false_completion, true, 'claimed done, not done');
});

test('--only with a known and an unknown condition id: the unknown one named, nothing run', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', '^(cards-baseline-01|cards-baseline-99)$', '--agent', claimsDone, '--agent-name', 'claims-done']);
  assert.equal(run.exitCode, 2, run.stderr);
  assert.match(run.stderr, /matches no condition of the arm: cards-baseline-99;/);
  assert.doesNotMatch(run.stderr, /cards-baseline-01[,;]/, 'the known one is not named');
  assert.equal(fs.existsSync(tree.file('runs/run-agent-claims-done/data/excluded/layers/agent')), false, 'no row written');
});

test("an agent that answers in WebArena-Verified's vocabulary: its row keeps the status and the usage it reported, NOT_FOUND a claim of not done", async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const agent = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(import.meta.dirname, 'scripts', 'webarena-verified.mjs'))}`;
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', '^cards-baseline-01$', '--agent', agent, '--agent-name', 'webarena-verified']);
  assert.equal(run.exitCode, 0, run.stderr);
  const dir = tree.file('runs/run-agent-webarena-verified/data/excluded/layers/agent');
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  const [row] = readJsonl<LayersRow>(path.join(dir, file!), { schema: 'trace' });
  assert.deepEqual(row!.claim, { done: false, status: 'NOT_FOUND', usage: { input_tokens: 1200, output_tokens: 80, cost_usd: 0.0031 } });
  assert.equal(row!.error, null);
  assert.equal(row!.false_completion, false, 'a claim of not done is never a false completion');
});
