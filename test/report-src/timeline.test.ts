// shares the machine: it renders files (and pages) and asserts what they contain, never how fast.
// An outside agent's row that records its moments (prereg amendment 7), in a throw-away tree: its
// scorecard cell (claimed done, AS, VTS, FC) equals the tree's analysis/out, and its timeline shows
// the moments the row holds on the agent's clock, in time order, with the claim, the server's commit
// and the scoring boundary; an excluded copy of it is marked with its reason and counted nowhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { makeTree, type Tree } from '../helpers/tree.ts';
import { launchBrowser } from '../../pipeline/browser/launch.ts';
import { buildReport } from '../../report-src/build.ts';
import { reportTables } from '../../report-src/record.ts';
import { wilson } from '../../core/stats.ts';

const agentRow = {
  schema: 'trace/1', study: 'layers', arm: 'agent', run_id: 'layers-agent-sample-chromium-1', condition_id: 'cards-state-01', policy: 'sample-agent',
  browser: { name: 'chromium', version: '1' }, ledger_head: 'a'.repeat(64), started_at: '2026-12-01T00:00:00.000Z', elapsed_ms: 1000.5,
  agent: { name: 'sample-agent', command: 'node agent.mjs', sha256: null },
  template: 'cards', layer: 'state', severity: 1, apparent_success: true, vts: false, false_completion: true, actions: 2, retries: 0, horizon_ms: 100,
  persisted: { key: 'Kestrel', value: 'Efficiency' }, target: { key: 'Kestrel', value: 'Balanced' }, timing_margin_ms: 20, timing_sensitive: false, boundary: 'return',
  moments: { returned: 900, saves: [400], first_target_save: 400, commits: [{ at: 700, save: 400, matches: false }], initial_matches: false, reveal_after_ms: 0, success_shown: 450, success_seen: 460, confirmed: null, revealed: null, look: null, timed_waits: [[100, 300]] },
  claim: { done: true, message: 'saved the mode' }, error: null,
};

const rate = (k: number, n: number, name: string) => {
  const w = wilson(k, n);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  return { [`${name}_rate`]: r4(k / n), [`${name}_low`]: r4(w.low), [`${name}_high`]: r4(w.high) };
};
const agentTableRow = (layer: string) => ({
  browser: 'chromium', agent: 'sample-agent', agent_sha256: null, layer, n: 1, claimed_n: 1, as_n: 1, vts_n: 0, fc_n: 1, error_n: 0,
  ...rate(1, 1, 'claimed'), ...rate(1, 1, 'as'), ...rate(0, 1, 'vts'), ...rate(1, 1, 'fc'),
});

let tree: Tree;
let out: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const savedRoot = process.env.RSTACK_ROOT;

before(async () => {
  tree = makeTree({ tasks: true });
  tree.write('data/raw/layers/agent/layers-agent-sample-chromium-1.jsonl', JSON.stringify(agentRow) + '\n');
  const excludedFile = 'data/excluded/layers/agent/layers-agent-sample-chromium-smoke-0.jsonl';
  tree.write(excludedFile, JSON.stringify({ ...agentRow, run_id: 'layers-agent-sample-chromium-smoke-0', smoke: true }) + '\n');
  tree.write('data/excluded/REASONS.jsonl', JSON.stringify({ at: '2026-12-01T00:00:00.000Z', file: excludedFile, from: null, reason: 'smoke run of the sample agent' }) + '\n');
  for (const t of reportTables) tree.write(`analysis/out/${t}.json`, JSON.stringify({ table: t, title: t, rows: t === 'agent_by_layer' ? [agentTableRow('all'), agentTableRow('state')] : [] }));
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-report-tree-'));
  await buildReport({ outDir: out });
  ({ browser } = await launchBrowser('chromium', null));
  page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(pathToFileURL(path.join(out, 'index.html')).href);
  await page.waitForSelector('section[data-section="agent_by_layer"] tbody tr');
});

after(async () => {
  await browser?.close();
  tree?.cleanup();
  fs.rmSync(out, { recursive: true, force: true });
  if (savedRoot === undefined) delete process.env.RSTACK_ROOT;
  else process.env.RSTACK_ROOT = savedRoot;
});

test("an agent's scorecard shows claimed done, AS, VTS and FC as the tree's analysis/out has them; its FC cell opens its false completion", async () => {
  const cells = await page.$$eval('section[data-section="agent_by_layer"] tbody tr[data-row="0"] td[data-measure]', (tds) => tds.map((td) => [(td as HTMLElement).dataset.measure, (td as HTMLElement).dataset.k, (td as HTMLElement).dataset.n]));
  assert.deepEqual(cells, [['claimed', '1', '1'], ['as', '1', '1'], ['vts', '0', '1'], ['fc', '1', '1']]);
  const empty = await page.textContent('section[data-section="layers_pilot"]');
  assert.match(empty!, /No registered rows yet/);
  await page.click('section[data-section="agent_by_layer"] tbody tr[data-row="0"] td[data-measure="fc"] a.k');
  await page.waitForSelector('#cell-filter');
  assert.equal(await page.textContent('#count b'), '1');
  await page.locator('#trace-table tbody tr a.open').first().click();
  await page.waitForSelector('#moments');
  const moments = await page.$$eval('#moments tbody tr', (trs) => trs.map((tr) => ({ t: Number((tr as HTMLElement).dataset.t), lane: (tr as HTMLElement).dataset.lane, what: tr.querySelectorAll('td')[2]!.textContent })));
  assert.deepEqual(moments.map((m) => m.t), [0, 400, 450, 460, 700, 900, 900, 1000, 1000.5, 1000.5], 'the row\'s moments in time order');
  const at = (t: number, lane: string) => moments.filter((m) => m.t === t && m.lane === lane).map((m) => m.what).join(' | ');
  assert.match(at(400, 'server'), /server receives a save/);
  assert.match(at(450, 'page'), /page shows success/);
  assert.match(at(460, 'agent'), /agent sees the success indication/);
  assert.match(at(700, 'server'), /server commits the target \(another value\)/);
  assert.match(at(900, 'claim'), /claim: done — "saved the mode"/);
  assert.match(at(900, 'agent'), /agent returns/);
  assert.match(at(1000, 'scoring'), /scoring boundary \(return \+ horizon 100 ms\)/);
  assert.match(at(1000.5, 'server'), /"value":"Efficiency".*→ VTS false/);
  // the timed wait is drawn as a span on the agent's lane
  assert.equal(await page.locator('#timeline svg line title', { hasText: 'timed wait ran out' }).count(), 1);
  // the excluded copy of the same unit is linked, marked excluded
  const others = await page.$$eval('#others tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[4]!.textContent));
  assert.deepEqual(others, ['excluded']);
});

test('the excluded copy is listed with its reason and counted in no scorecard', async () => {
  await page.click('nav a[data-nav="excluded"]');
  // the page routes on hashchange, which fires after the click returns: read the list once it is drawn
  await page.waitForSelector('#excluded-runs');
  const rows = await page.$$eval('#excluded-runs tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
  assert.equal(rows.length, 1);
  assert.match(rows[0]!, /smoke run of the sample agent/);
  await page.click('#excluded-runs a');
  await page.waitForSelector('#trace-table');
  assert.equal(await page.locator('#trace-table tbody tr.excluded').count(), 1);
  await page.locator('#trace-table tbody tr a.open').first().click();
  await page.waitForSelector('.reason');
  assert.match((await page.textContent('.reason'))!, /smoke run of the sample agent[\s\S]*counted in no scorecard/);
  assert.deepEqual(problems, []);
});
