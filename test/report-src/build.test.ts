// shares the machine: it renders files (and pages) and asserts what they contain, never how fast.
// make report, tested in a real browser: the report of the registered record is generated into a
// throw-away folder and opened from file:// in Debian's Chromium (the project's launch helper).
// The record is only read (data/raw, data/excluded, data/tasks, analysis/out).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../pipeline/browser/launch.ts';
import { buildReport, type Built } from '../../report-src/build.ts';
import { readRecord, type ReportRecord, type Row } from '../../report-src/record.ts';
import { buildScorecards, sectionDefs, type Trace } from '../../report-src/scorecards.ts';
import { auditSection } from '../../report-src/audit.ts';
import { paths } from '../../core/paths.ts';

let dir: string;
let built: Built;
let record: ReportRecord;
let browser: Browser;
let page: Page;
const problems: string[] = [];
declare const RSB: { state: any };

const table = (name: string) => JSON.parse(fs.readFileSync(path.join(paths.analysisOut(), `${name}.json`), 'utf8')) as { rows: Record<string, any>[] };
const registeredRows = () => record.runs.filter((r) => r.status === 'registered').flatMap((r) => r.rows);
/** The registered traces with their real run and line (the evaluator audit's rows name them so). */
const registeredTraces = (): Trace[] => record.runs.filter((r) => r.status === 'registered').flatMap((r) => r.rows.map((row, line) => ({ run: r.index, line, row }))).map((t, id) => ({ id, ...t }));
/** Every section after the recounted tables of scorecards.ts: the evaluator audit (report-src/audit.ts). */
const auditMeasures = [{ name: 'false_accept', k: 'false_accept_n', n: 'not_stored_n' }, { name: 'false_reject', k: 'false_reject_n', n: 'stored_n' }];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-report-'));
  record = readRecord();
  built = await buildReport({ outDir: dir, record });
  ({ browser } = await launchBrowser('chromium', null));
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) problems.push(`network request: ${r.url()}`); });
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  await page.waitForSelector('section.scorecard');
});

after(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the report is one static folder: the opening page, the loader, and the data as per-run script files', () => {
  for (const f of ['index.html', 'app.js', 'style.css', 'data/index.js', 'data/scorecards.js']) assert.ok(fs.existsSync(path.join(dir, f)), f);
  for (const run of record.runs) assert.ok(fs.existsSync(path.join(dir, 'data', 'runs', `${run.index}-0.js`)), `the first part of ${run.file}`);
  // every row is in exactly one part of its run, in order
  const parts = fs.readdirSync(path.join(dir, 'data', 'runs'));
  const lines = new Map<number, unknown[]>();
  const RSB = { run: (i: number, _part: number, start: number, rows: unknown[]) => { const l = lines.get(i) ?? []; rows.forEach((r, k) => { assert.equal(l[start + k], undefined); l[start + k] = r; }); lines.set(i, l); } };
  for (const p of parts) new Function('RSB', fs.readFileSync(path.join(dir, 'data', 'runs', p), 'utf8'))(RSB);
  for (const run of record.runs) assert.deepEqual(lines.get(run.index) ?? [], run.rows, run.file);
  assert.equal(built.registered, registeredRows().length);
  // the opening page does not carry the rows: they load per run
  const opening = ['index.html', 'app.js', 'style.css', 'data/index.js', 'data/scorecards.js'].reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0);
  assert.ok(opening < built.bytes / 10, `the opening page loads ${opening} of ${built.bytes} bytes`);
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /https?:\/\//, 'the page names no network address');
});

test('every scorecard number on the page equals analysis/out, row by row', async () => {
  const shown = await page.$$eval('section.scorecard', (sections) => sections.map((s) => ({
    id: (s as HTMLElement).dataset.section!,
    rows: Array.from(s.querySelectorAll('tbody tr')).map((tr) => Object.fromEntries(Array.from(tr.querySelectorAll('td[data-measure]')).map((td) => {
      const d = (td as HTMLElement).dataset;
      return [d.measure!, { k: Number(d.k), n: Number(d.n), low: d.low === '' ? null : Number(d.low), high: d.high === '' ? null : Number(d.high), text: td.querySelector('a.k')!.textContent + '/' + td.querySelector('a.n')!.textContent }];
    }))),
  })));
  assert.deepEqual(shown.map((s) => s.id), [...sectionDefs.map((d) => d.table), 'evaluator_audit']);
  let cells = 0;
  for (const s of shown) {
    const measures = s.id === 'evaluator_audit' ? auditMeasures : sectionDefs.find((d) => d.table === s.id)!.measures;
    const rows = table(s.id).rows;
    assert.equal(s.rows.length, rows.length, `${s.id}: rows`);
    rows.forEach((row, i) => {
      for (const m of measures) {
        const cell = s.rows[i]![m.name]!;
        assert.equal(cell.k, row[m.k], `${s.id} row ${i} ${m.k}`);
        assert.equal(cell.n, row[m.n], `${s.id} row ${i} ${m.n}`);
        assert.equal(cell.text, `${row[m.k]}/${row[m.n]}`, `${s.id} row ${i} ${m.name}: the text shown`);
        assert.equal(cell.low, row[`${m.name}_low`] ?? null, `${s.id} row ${i} ${m.name}_low`);
        assert.equal(cell.high, row[`${m.name}_high`] ?? null, `${s.id} row ${i} ${m.name}_high`);
        cells++;
      }
    });
  }
  assert.ok(cells > 100, `${cells} cells compared`);
});

test("the charts are the project's Vega-Lite specs, and each bar or cell links to the traces of a count in its section's table", async () => {
  const charts = await page.$$eval('figure.chart', (figs) => figs.map((f) => ({
    chart: (f as HTMLElement).dataset.chart,
    section: f.closest('section')!.getAttribute('data-section'),
    links: Array.from(f.querySelectorAll('a')).map((a) => a.getAttribute('xlink:href') ?? a.getAttribute('href')),
    cellLinks: Array.from(f.closest('section')!.querySelectorAll('td a.k')).map((a) => a.getAttribute('href')),
  })));
  assert.deepEqual(charts.map((c) => c.chart).sort(), ['as_vs_vts', 'evaluator_audit', 'evidence_errors', 'horizon', 'vts_by_layer']);
  for (const c of charts) {
    assert.ok(fs.existsSync(path.join(paths.root(), 'figures', `${c.chart}.vl.json`)));
    assert.ok(c.links.length > 0, `${c.chart} has links`);
    const cellOf = (href: string | null) => href?.match(/^#\/traces\?cell=(\d+)&/)?.[1];
    const counts = new Set(c.cellLinks.map(cellOf));
    for (const l of c.links) assert.ok(cellOf(l) !== undefined && counts.has(cellOf(l)), `${c.chart}: ${l} is a count of ${c.section}`);
  }
  // inlined in one page, no two charts share an id (a legend's gradient would be another chart's)
  const ids = await page.$$eval('figure.chart [id]', (els) => els.map((e) => e.id));
  assert.ok(ids.some((id) => id.startsWith('evaluator_audit-gradient_')), ids.join(' '));
  assert.equal(new Set(ids).size, ids.length, `ids shared between charts: ${ids.join(' ')}`);
  // and one of them, clicked, lists its traces
  const link = page.locator('figure[data-chart="as_vs_vts"] a').first();
  const cell = Number((await link.getAttribute('xlink:href'))!.match(/cell=(\d+)/)![1]);
  await link.click();
  await page.waitForSelector('#cell-filter');
  const size = await page.evaluate((id) => RSB.state.cards.lists[id].length, cell);
  assert.equal(await page.textContent('#count b'), String(size));
});

test('the evaluator audit is a section: each row is analysis/out/evaluator_audit.json\'s, and a false-accept cell opens the traces the store denied and the evaluator credited', async () => {
  await page.click('nav a[data-nav="scorecards"]');
  await page.waitForSelector('section[data-section="evaluator_audit"]');
  const audit = table('evaluator_audit').rows;
  assert.ok(audit.length > 0, 'the record has an evaluator audit');
  const keys = ['browser', 'arm', 'arm_version', 'app', 'fault', 'evaluator'];
  const shown = await page.$$eval('section[data-section="evaluator_audit"] tbody tr', (trs) => trs.map((tr) => ({
    key: Array.from(tr.querySelectorAll('td:not([data-measure])')).map((td) => td.textContent),
    cells: Object.fromEntries(Array.from(tr.querySelectorAll('td[data-measure]')).map((td) => [(td as HTMLElement).dataset.measure, {
      text: td.querySelector('a.k')!.textContent + '/' + td.querySelector('a.n')!.textContent,
      rate: td.querySelector('.rate')!.textContent, ci: td.querySelector('.ci')!.textContent,
    }])),
  })));
  assert.equal(shown.length, audit.length);
  const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  audit.forEach((row, i) => {
    assert.deepEqual(shown[i]!.key, keys.map((k) => String(row[k])), `row ${i}: its key`);
    assert.deepEqual(shown[i]!.cells, {
      false_accept: { text: `${row.false_accept_n}/${row.not_stored_n}`, rate: pct(row.false_accept_rate), ci: `[${pct(row.false_accept_low)}, ${pct(row.false_accept_high)}]` },
      false_reject: { text: `${row.false_reject_n}/${row.stored_n}`, rate: pct(row.false_reject_rate), ci: `[${pct(row.false_reject_low)}, ${pct(row.false_reject_high)}]` },
    }, `row ${i} (${keys.map((k) => row[k]).join(' ')})`);
  });
  // the row with the most false accepts: its count opens exactly those traces, each a registered row the store denied
  const i = audit.reduce((best, row, j) => (row.false_accept_n > audit[best]!.false_accept_n ? j : best), 0);
  const row = audit[i]!;
  assert.ok(row.false_accept_n > 0);
  await page.click(`section[data-section="evaluator_audit"] tbody tr[data-row="${i}"] td[data-measure="false_accept"] a.k`);
  await page.waitForSelector('#cell-filter');
  assert.equal(await page.textContent('#count b'), String(row.false_accept_n));
  const listed = await page.evaluate(() => {
    const s = RSB.state;
    const list = Number(new URLSearchParams(location.hash.split('?')[1]).get('cell'));
    return s.cards.lists[list].map((id: number) => ({ file: s.index.runs[s.traces[id].run].file, line: s.traces[id].line + 1 }));
  });
  const perTrace = new Map(table('evaluator_audit_traces').rows.map((r) => [`${r.file}#${r.line}`, r]));
  const rowsOf = new Map(record.runs.map((r) => [r.file, r.rows]));
  for (const { file, line } of listed) {
    const t = perTrace.get(`${file}#${line}`);
    assert.ok(t, `${file}:${line} is a row of evaluator_audit_traces`);
    assert.equal(t[row.evaluator], true, `${file}:${line}: ${row.evaluator} credits it`);
    assert.equal(rowsOf.get(file)![line - 1]!.vts, false, `${file}:${line}: the store denied it`);
    if (row.fault !== 'all') assert.equal(t.fault, row.fault);
  }
});

test('filtered to the false completions of one evidence policy, a trace opens with its events in the row\'s order and its decision points', async () => {
  const policy = 'optimistic-dom';
  const expected = registeredRows().filter((r) => r.study === 'evidence' && r.truth === 'failure' && r.verdicts?.[policy]?.accept === true);
  assert.ok(expected.length > 0, 'the record holds false accepts of optimistic-dom');
  await page.click('nav a[data-nav="traces"]');
  await page.waitForSelector('#filters');
  await page.selectOption('#f-study', 'evidence');
  await page.selectOption('#f-policy', policy);
  await page.selectOption('#f-outcome', 'fc');
  await page.waitForFunction((n) => document.querySelector('#count b')?.textContent === String(n), expected.length);
  const first = expected[0]!;
  const firstShown = page.locator('#trace-table tbody tr').first();
  assert.equal((await firstShown.locator('td').nth(1).textContent())?.trim(), first.condition_id);
  await firstShown.locator('a.open').click();
  await page.waitForSelector('#events');
  assert.match((await page.textContent('#trace-title'))!, new RegExp(`^${first.condition_id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  const events = await page.$$eval('#events tbody tr.event', (trs) => trs.map((tr) => {
    const d = (tr as HTMLElement).dataset;
    const td = tr.querySelectorAll('td');
    return { t_ms: Number(d.t), source: d.source, type: d.type, request_id: d.request || undefined, status: td[4]!.textContent || undefined, url: td[5]!.textContent || undefined };
  }));
  assert.deepEqual(events, first.events.map((e: Row) => ({ t_ms: e.t_ms, source: e.source, type: e.type, request_id: e.request_id, status: e.status === undefined ? undefined : String(e.status), url: e.url })));
  // the timeline draws each event once (its tooltip names it), on one clock
  const marks = await page.$$eval('#timeline svg circle title', (ts) => ts.length);
  assert.equal(marks, first.events.length, 'one mark per event on the timeline');
  const verdicts = await page.$$eval('#verdicts tbody tr', (trs) => trs.map((tr) => [(tr as HTMLElement).dataset.policy, tr.querySelectorAll('td')[2]!.textContent, tr.classList.contains('false-accept')]));
  assert.deepEqual(verdicts, Object.entries(first.verdicts).map(([p, v]: [string, any]) => [p, v.accept ? 'accept' : 'reject', v.accept && first.truth === 'failure']));
  assert.ok(verdicts.some(([p, , falseAccept]) => p === policy && falseAccept), 'the chosen policy\'s false accept is marked');
  // its condition's definition beside it
  assert.match((await page.textContent('#condition'))!, new RegExp(`"condition_id": "${first.condition_id}"`));
});

test('a layers false completion is three clicks from the opening page: a scorecard cell, a trace, its timeline', async () => {
  await page.click('nav a[data-nav="scorecards"]');
  await page.waitForSelector('section.scorecard');
  const overall = table('layers_overall').rows[0]!;
  await page.click('section[data-section="layers_overall"] tbody tr[data-row="0"] td[data-measure="fc"] a.k');
  await page.waitForSelector('#cell-filter');
  assert.equal(await page.textContent('#count b'), String(overall.fc_n));
  const first = registeredRows().find((r) => r.study === 'layers' && r.arm === 'main' && r.browser.name === overall.browser && r.policy === overall.policy && r.false_completion)!;
  await page.locator('#trace-table tbody tr a.open').first().click();
  await page.waitForSelector('#moments');
  assert.match((await page.textContent('#trace-title'))!, new RegExp(`^${first.condition_id}`));
  const moments = await page.$$eval('#moments tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
  assert.ok(moments.some((m) => m.includes('server state at the scoring boundary') && m.includes(JSON.stringify(first.persisted))), moments.join('\n'));
  // the other browser's run of the same unit is linked
  const others = await page.$$eval('#others tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[1]!.textContent));
  assert.ok(others.includes(overall.browser === 'chromium' ? 'firefox' : 'chromium'), `other runs: ${others.join(', ')}`);
});

test('excluded and superseded attempts are listed with their reasons and counted in no scorecard', async () => {
  await page.click('nav a[data-nav="excluded"]');
  await page.waitForSelector('#excluded-runs');
  const excluded = record.runs.filter((r) => r.status === 'excluded');
  const rows = await page.$$eval('#excluded-runs tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
  assert.equal(rows.length, excluded.length);
  excluded.forEach((r, i) => {
    assert.ok(rows[i]!.includes(r.file));
    assert.ok(rows[i]!.includes(r.reason!));
    // what a failed attempt left that is not a trace row (its error, a run log) is shown as it is
    for (const line of r.otherLines) assert.ok(rows[i]!.includes(JSON.stringify(line)), `${r.file}: ${JSON.stringify(line).slice(0, 80)}`);
  });
  const counted = await page.evaluate(() => {
    // the page's loader: a top-level const of report-src/page/app.js, a global binding but not a window property
    const s = RSB.state;
    const ids = new Set<number>(s.cards.lists.flat());
    return s.traces.filter((t: any) => ids.has(t.id) && t.status !== 'registered').length;
  });
  assert.equal(counted, 0);
});

test('the page logged no console error, made no network request, and nothing failed to load', () => {
  assert.deepEqual(problems, []);
});

test('the report refuses to write a scorecard whose recount disagrees with analysis/out', () => {
  const tampered: ReportRecord = { ...record, tables: new Map(record.tables) };
  const t = structuredClone(tampered.tables.get('layers_overall')!);
  t.rows[0]!.fc_n += 1;
  tampered.tables.set('layers_overall', t);
  const traces = registeredRows().map((row, id) => ({ id, run: 0, line: id, row }));
  assert.throws(() => buildScorecards(tampered, traces), /disagrees with analysis\/out[\s\S]*layers_overall\.json \(browser=chromium, policy=selector-only\) fc_n\/n/);
  assert.doesNotThrow(() => buildScorecards(record, traces));
});

test('the report refuses an evaluator audit its trace rows do not add up to, or whose trace rows name no registered trace', () => {
  const traces = registeredTraces();
  const listOf = () => 0;
  const tampered = (change: (rows: Record<string, any>[]) => void): ReportRecord => {
    const t = structuredClone(record.tables.get('evaluator_audit_traces')!);
    change(t.rows);
    return { ...record, tables: new Map([...record.tables, ['evaluator_audit_traces', t]]) };
  };
  assert.ok(auditSection(record, traces, listOf).rows.length > 0);
  // a trace the store denied, now credited by the network rule where it was not: one false accept more than the table says
  const flipped = tampered((rows) => { rows.find((r) => r.stored === false && r.network === false)!.network = true; });
  assert.throws(() => auditSection(flipped, traces, listOf), /evaluator_audit_traces\.json disagrees[\s\S]*evaluator=network\) false_accept_n\/not_stored_n: the table says (\d+)\/\d+, analysis\/out\/evaluator_audit_traces\.json (?!\1\/)\d+\//);
  // a trace row one line past its run's end
  const nowhere = tampered((rows) => { rows[0]!.line = 1e6; });
  assert.throws(() => auditSection(nowhere, traces, listOf), /line=1000000\): names no registered trace/);
  // a trace row whose store verdict is not its registered row's VTS
  const stored = tampered((rows) => { rows[0]!.stored = !rows[0]!.stored; });
  assert.throws(() => auditSection(stored, traces, listOf), /the registered row's VTS is/);
});
