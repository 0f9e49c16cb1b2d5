// make run-agent on a throw-away frozen tree: a smoke slice with a scripted outside agent, and a
// registered run refused without the frozen prereg that names the agent.
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
  const dir = tree.file('data/excluded/layers/agent');
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
  const dir = tree.file('data/excluded/layers/agent');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.match(files.join(), /^layers-agent-claims-done-firefox-/);
  const [row] = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.equal(row!.browser.name, 'firefox');
  assert.match(row!.browser.version, /^\d+\.\d+/);
  assert.deepEqual(row!.claim, { done: true });
  assert.equal(row!.false_completion, true, 'claimed done, not done');
});
