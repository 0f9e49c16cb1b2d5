// shares the machine: it renders files (and pages) and asserts what they contain, never how fast.
// The real-applications arm in the report, in a throw-away tree: two registered real-app rows (a
// State fault on WordPress, the write answered by the proxy and held past the database read; a
// Verification fault on MediaWiki, the write dropped) and the tree's layers_real_apps table. The
// scorecard shows AS, VTS, FC per application, family, policy and layer as the table has them, its
// cells open the traces they count, and each trace's timeline puts the agent, the page, every write
// as the proxy handled it, the app, the boundary and the database read on one clock. An empty
// record gives an empty section that says so.
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

const common = {
  schema: 'trace/1', study: 'layers', arm: 'real-apps', run_id: 'layers-real-apps-chromium-1', browser: { name: 'chromium', version: '1' },
  ledger_head: 'a'.repeat(64), started_at: '2026-12-01T00:00:00.000Z', retries: 0, horizon_ms: 500, error: null, timing_margin_ms: null, timing_sensitive: false,
};
// the State fault: answered at 1200 ms (302), held, at the app from 3700 to 3900 ms, after the read at 2310 ms
const stateRow = {
  ...common, condition_id: 'wordpress-general-title-state-2-01', policy: 'semantic-recovery', elapsed_ms: 1800,
  template: 'wordpress-general-title', app: 'wordpress', layer: 'state', severity: 2, variant: 'v1', fault_source: 'proxy',
  apparent_success: true, vts: false, false_completion: true, actions: 3, boundary: 'return',
  persisted: { key: 'title()', value: 'RStackBench Seed' }, target: { key: 'title()', value: 'Harbour Notes' },
  real_app: {
    reset_ms: 310.5, returned: 1800, loads: [1500], success_shown: 1600, boundary_at: 2300, read_at: 2310,
    writes: [{ t: 1200, action: 'answered', status: 302, reached_app: 3700, app_answered: 3900 }],
  },
};
// the Verification fault: answered at 900 ms (302), never sent on
const verificationRow = {
  ...common, condition_id: 'mediawiki-edit-page-verification-1-01', policy: 'selector-only', elapsed_ms: 1000,
  template: 'mediawiki-edit-page', app: 'mediawiki', layer: 'verification', severity: 1, variant: 'v2', fault_source: 'proxy',
  apparent_success: true, vts: false, false_completion: true, actions: 2, boundary: 'page',
  persisted: { key: 'latest_text(Harbour)', value: 'old text' }, target: { key: 'latest_text(Harbour)', value: 'new text' },
  real_app: {
    reset_ms: 205, returned: 1000, loads: [1300], success_shown: 1350, boundary_at: 1800, read_at: 1805,
    writes: [{ t: 900, action: 'dropped', status: 302, reached_app: null, app_answered: null }],
  },
};

const rate = (k: number, n: number, name: string) => {
  const w = wilson(k, n);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  return { [`${name}_rate`]: r4(k / n), [`${name}_low`]: r4(w.low), [`${name}_high`]: r4(w.high) };
};
/** The table rows analysis/out would hold for one row: its family and layer, and the "all" groups (both rows are the proxy's faults). */
type RealRow = { template: string; layer: string; app: string; policy: string; actions: number; elapsed_ms: number };
const tableRows = (r: RealRow) => [[r.template, r.layer], [r.template, 'all'], ['all', r.layer], ['all', 'all']].map(([family, layer]) => ({
  browser: 'chromium', app: r.app, family, policy: r.policy, layer, n: 1, as_n: 1, vts_n: 0, fc_n: 1, timing_sensitive_n: 0, error_n: 0,
  mean_actions: r.actions, mean_latency_ms: r.elapsed_ms, ...rate(1, 1, 'as'), ...rate(0, 1, 'vts'), ...rate(1, 1, 'fc'),
}));

let tree: Tree;
let out: string;
let emptyOut: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const savedRoot = process.env.RSTACK_ROOT;

const open = async (dir: string) => {
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  await page.waitForSelector('section[data-section="layers_real_apps"]');
};

before(async () => {
  tree = makeTree();
  for (const t of reportTables) tree.write(`analysis/out/${t}.json`, JSON.stringify({ table: t, title: t, rows: [] }));
  // the empty record first: the section is there and says it has no rows
  emptyOut = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-report-real-empty-'));
  await buildReport({ outDir: emptyOut });
  tree.write('data/raw/layers/real-apps/layers-real-apps-chromium-1.jsonl', [stateRow, verificationRow].map((r) => JSON.stringify(r)).join('\n') + '\n');
  tree.write('analysis/out/layers_real_apps.json', JSON.stringify({ table: 'layers_real_apps', title: 'layers_real_apps', rows: [...tableRows(verificationRow), ...tableRows(stateRow)] }));
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-report-real-'));
  await buildReport({ outDir: out });
  ({ browser } = await launchBrowser('chromium', null));
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
});

after(async () => {
  await browser?.close();
  tree?.cleanup();
  for (const d of [out, emptyOut]) if (d) fs.rmSync(d, { recursive: true, force: true });
  if (savedRoot === undefined) delete process.env.RSTACK_ROOT;
  else process.env.RSTACK_ROOT = savedRoot;
});

test('on an empty record the real-apps scorecard is there and says it has no rows yet', async () => {
  await open(emptyOut);
  assert.match((await page.textContent('section[data-section="layers_real_apps"]'))!, /No registered rows yet/);
});

test('the real-apps scorecard shows AS, VTS, FC per app, family, policy and layer as the table has them; a cell opens the traces it counts', async () => {
  await open(out);
  const section = 'section[data-section="layers_real_apps"]';
  const rows = await page.$$eval(`${section} tbody tr`, (trs) => trs.map((tr) => ({
    key: Array.from(tr.querySelectorAll('td:not([data-measure])')).map((td) => td.textContent),
    cells: Array.from(tr.querySelectorAll('td[data-measure]')).map((td) => `${(td as HTMLElement).dataset.measure}=${(td as HTMLElement).dataset.k}/${(td as HTMLElement).dataset.n}`),
  })));
  assert.equal(rows.length, 8);
  assert.deepEqual(rows[0]!.key, ['chromium', 'mediawiki', 'mediawiki-edit-page', 'selector-only', 'verification']);
  for (const r of rows) assert.deepEqual(r.cells, ['as=1/1', 'vts=0/1', 'fc=1/1']);
  // the app's "all families, all layers" FC cell of WordPress counts the State trace alone
  const wpAll = rows.findIndex((r) => r.key.join(' ') === 'chromium wordpress all semantic-recovery all');
  assert.ok(wpAll >= 0);
  await page.click(`${section} tbody tr[data-row="${wpAll}"] td[data-measure="fc"] a.k`);
  await page.waitForSelector('#cell-filter');
  assert.equal(await page.textContent('#count b'), '1');
  assert.match((await page.textContent('#trace-table tbody'))!, /wordpress-general-title-state-2-01/);
});

test("a held write's trace: the agent, the page, the proxy's answer and hold, the app, the boundary and the database read on one clock", async () => {
  await page.locator('#trace-table tbody tr a.open').first().click();
  await page.waitForSelector('#moments');
  const moments = await page.$$eval('#moments tbody tr', (trs) => trs.map((tr) => ({ t: Number((tr as HTMLElement).dataset.t), lane: (tr as HTMLElement).dataset.lane!, what: tr.querySelectorAll('td')[2]!.textContent! })));
  assert.deepEqual(moments.map((m) => m.t), [...moments.map((m) => m.t)].sort((a, b) => a - b), 'in time order');
  const at = (t: number, lane: string) => moments.filter((m) => m.t === t && m.lane === lane).map((m) => m.what).join(' | ');
  assert.match(at(0, 'agent'), /agent starts/);
  assert.match(at(1200, 'proxy'), /write 1 \(302\): answered by the proxy .*held, forwarded to the app later/);
  assert.match(at(1500, 'page'), /page load/);
  assert.match(at(1600, 'page'), /success notice shown/);
  assert.match(at(1800, 'agent'), /agent returns/);
  assert.match(at(1800, 'claim'), /apparent success true/);
  assert.match(at(2300, 'scoring'), /scoring boundary \(set by return \+ 500 ms\)/);
  assert.match(at(2310, 'app'), /database read: "RStackBench Seed" against the target "Harbour Notes" → VTS false/);
  assert.match(at(3700, 'app'), /write 1 reaches the app/);
  assert.match(at(3900, 'app'), /the app answers write 1/);
  // the hold is drawn as a span on the proxy's lane, from the answer to the forwarding
  assert.equal(await page.locator('#timeline svg line title', { hasText: 'write 1 held by the proxy' }).count(), 1);
  const writes = await page.$$eval('#writes tbody tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
  assert.deepEqual(writes.map((w) => [w[1], w[3], w[4], w[5]]), [['1200', '302', '3700', '3900']]);
  assert.match((await page.textContent('#stored'))!, /"RStackBench Seed".*target.*"Harbour Notes".*VTS false/);
});

test("a dropped write's trace says it never reached the app", async () => {
  await page.goto(pathToFileURL(path.join(out, 'index.html')).href + '#/traces?layer=verification');
  await page.waitForSelector('#trace-table tbody tr a.open');
  await page.locator('#trace-table tbody tr a.open').first().click();
  await page.waitForSelector('#writes');
  const moments = await page.$$eval('#moments tbody tr', (trs) => trs.map((tr) => `${(tr as HTMLElement).dataset.lane}: ${tr.querySelectorAll('td')[2]!.textContent}`));
  assert.ok(moments.some((m) => /^proxy: write 1 \(302\): .*dropped: never reaches the app/.test(m)), moments.join('\n'));
  assert.ok(!moments.some((m) => /^app: write \d+ reaches the app/.test(m)), 'no arrival at the app is drawn');
  assert.deepEqual(await page.$$eval('#writes tbody td:nth-child(5)', (tds) => tds.map((td) => td.textContent)), ['never']);
  assert.ok(moments.some((m) => /^scoring: scoring boundary \(set by page \+ 500 ms\)/.test(m)));
  assert.deepEqual(problems, []);
});

test("an outside agent on the real applications has a scorecard of its own; the small apps' agent scorecard does not count it", async () => {
  // an agent's row on a real-applications condition: claimed done, nothing written, so a false completion
  const agentRow = {
    ...common, arm: 'agent', run_id: 'layers-agent-some-agent-real-apps-chromium-1', condition_id: 'wordpress-general-title-action-2-01',
    policy: 'some-agent', agent: { name: 'some-agent', command: 'some-agent --go', sha256: 'c'.repeat(64) }, claim: { done: true, message: 'done' },
    template: 'wordpress-general-title', app: 'wordpress', layer: 'action', severity: 2, variant: 'v1', fault_source: 'proxy', elapsed_ms: 2000,
    apparent_success: false, vts: false, false_completion: true, actions: 1, retries: null, boundary: 'return',
    persisted: { key: 'siteTitle()', value: 'RStackBench Seed' }, target: { key: 'siteTitle()', value: 'Harbour Watch' },
    real_app: { reset_ms: 30, writes: [], success_shown: null, boundary_at: 2500, read_at: 2501, loads: [], returned: 2000 },
  };
  tree.write('data/raw/layers/agent/layers-agent-some-agent-real-apps-chromium-1.jsonl', JSON.stringify(agentRow) + '\n');
  const agentTable = [['wordpress', 'action'], ['wordpress', 'all'], ['all', 'action'], ['all', 'all']].map(([app, layer]) => ({
    browser: 'chromium', agent: 'some-agent', agent_sha256: 'c'.repeat(64), app, layer, n: 1, claimed_n: 1, as_n: 0, vts_n: 0, fc_n: 1, error_n: 0, wrote_n: 0,
    median_latency_ms: 2000, ...rate(1, 1, 'claimed'), ...rate(0, 1, 'as'), ...rate(0, 1, 'vts'), ...rate(1, 1, 'fc'),
  }));
  tree.write('analysis/out/agent_real_apps.json', JSON.stringify({ table: 'agent_real_apps', title: 'agent_real_apps', rows: agentTable }));
  const agentOut = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-report-real-agent-'));
  try {
    // agent_by_layer (the small apps' conditions) has no rows: the report builds, so its recount left the row out
    await buildReport({ outDir: agentOut });
    await page.goto(pathToFileURL(path.join(agentOut, 'index.html')).href);
    await page.waitForSelector('section[data-section="agent_real_apps"]');
    const rows = await page.$$eval('section[data-section="agent_real_apps"] tbody tr', (trs) => trs.map((tr) => ({
      key: Array.from(tr.querySelectorAll('td:not([data-measure])')).map((td) => td.textContent).join(' '),
      cells: Array.from(tr.querySelectorAll('td[data-measure]')).map((td) => `${(td as HTMLElement).dataset.measure}=${(td as HTMLElement).dataset.k}/${(td as HTMLElement).dataset.n}`),
    })));
    assert.equal(rows.length, 4);
    assert.ok(rows.some((r) => r.key.startsWith('chromium some-agent') && r.key.endsWith('wordpress action')), JSON.stringify(rows));
    for (const r of rows) assert.deepEqual(r.cells, ['claimed=1/1', 'as=0/1', 'vts=0/1', 'fc=1/1']);
    assert.match((await page.textContent('section[data-section="agent_by_layer"]'))!, /No registered rows yet/);
    assert.deepEqual(problems, []);
  } finally {
    fs.rmSync(agentOut, { recursive: true, force: true });
  }
});
