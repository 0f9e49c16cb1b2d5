// shares the machine: it renders files (and pages) and asserts what they contain, never how fast.
// The paper: built from a sample tree under RSTACK_ROOT, in HTML and in Chromium's PDF; every table
// is there (as a heading, a PDF bookmark, and a link to its query); no number is typed into the source.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot, paths } from '../../core/paths.ts';
import { reanalyze } from '../../analysis/reanalyze.ts';
import { tables } from '../../analysis/tables.ts';
import { verdictRegistry, type VerdictFn } from '../../analysis/verdicts.ts';
import type { TimelineEvent } from '../../analysis/rows.ts';
import { renderFigures } from '../../figures/render.ts';
import { buildPaper, explanationsFile, paperSource, readSourceValues, writePaperHtml, type BuiltPaper } from '../../paper/build.ts';
import { typedNumbers } from '../../paper/typed-numbers.ts';
import { printPdf } from '../../pipeline/steps/paper.ts';
import { formatValue, parsePlaceholder, parseWhere } from '../../paper/template.ts';

let root: string;
let built: BuiltPaper;
const sample = (name: string) => fs.readFileSync(path.join(codeRoot, 'analysis', 'queries', `${name}.sample.jsonl`), 'utf8');
const onlyArm = (text: string, arm: string) => text.split('\n').filter((l) => l.includes(`"arm":"${arm}"`)).join('\n') + '\n';

// evidence rows whose verdicts a tiny local registry reproduces from their events
const domFirst: VerdictFn = (events) => { const e = events.find((x) => x.source === 'dom'); return { accept: !!e, latency_ms: e ? e.t_ms : null }; };
const networkOk: VerdictFn = (events) => { const e = events.find((x) => x.source === 'network' && (x.status ?? 0) < 400); return { accept: !!e, latency_ms: e ? e.t_ms : null }; };
const registry = verdictRegistry({ all: { 'dom-first': domFirst, 'network-ok': networkOk } });
function evidenceLine(i: number, truth: 'success' | 'failure', status: number): string {
  const events: TimelineEvent[] = [{ t_ms: 0, source: 'runner', type: 'dispatch' }, { t_ms: 3 + i, source: 'dom', type: 'mutation' }, { t_ms: 50 + i, source: 'network', type: 'loadingFinished', status }];
  return JSON.stringify({
    schema: 'trace/1', study: 'evidence', arm: 'controlled', run_id: 'r', condition_id: `c${i}`, policy: 'observer',
    browser: { name: 'chromium', version: '140.0' }, ledger_head: 'c'.repeat(64), started_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 200,
    scenario: truth === 'success' ? 'success' : 'http-500', delay_ms: 50, rep: 0, truth, events,
    verdicts: { 'dom-first': domFirst(events), 'network-ok': networkOk(events) },
  }) + '\n';
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-paper-'));
  process.env.RSTACK_ROOT = root;
  const put = (rel: string, text: string) => { fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true }); fs.writeFileSync(path.join(root, rel), text); };
  put('data/raw/layers/main/run-1.jsonl', onlyArm(sample('layers_paired'), 'main'));
  put('data/raw/layers/horizon/run-2.jsonl', onlyArm(sample('layers_horizon'), 'horizon'));
  put('data/raw/evidence/controlled/run-3.jsonl', evidenceLine(1, 'success', 200) + evidenceLine(2, 'failure', 500) + evidenceLine(3, 'success', 200));
  const result = await reanalyze({ registry });
  assert.deepEqual(result.problems, []);
  await renderFigures();
  // the sample tree has no explanations of its own: the repository's explain the registered data, not this sample
  built = buildPaper({ explanations: {} });
});
after(() => {
  delete process.env.RSTACK_ROOT;
  fs.rmSync(root, { recursive: true, force: true });
});

test('placeholders parse, filter and format', () => {
  const p = parsePlaceholder('table layers_overall columns=a,b where=policy:selector-only caption="Table I. Overall"');
  assert.deepEqual(p.args, ['layers_overall']);
  assert.deepEqual(p.options, { columns: 'a,b', where: 'policy:selector-only', caption: 'Table I. Overall' });
  assert.deepEqual(parseWhere('browser:chromium,horizon_ms:750'), { browser: 'chromium', horizon_ms: '750' });
  assert.throws(() => parseWhere('browser'), /column:value/);
  assert.equal(formatValue(0.53333, 'pct'), '53.3%');
  assert.equal(formatValue(0.0625, 'p'), '0.0625');
  assert.equal(formatValue(1e-30, 'p'), '< 0.0001');
  assert.equal(formatValue(null), '–');
});

test('the source types no number: no percentages, fractions, decimals or numbers of two or more digits in paper/paper.html', () => {
  const typed = typedNumbers(fs.readFileSync(paperSource, 'utf8')).filter((t) => /\d/.test(t));
  assert.deepEqual(typed, [], `numbers typed into paper/paper.html: ${typed.join(', ')}`);
});

test('the explanations are bound too: no number in digits or in words in paper/explanations.json', () => {
  const explanations = JSON.parse(fs.readFileSync(explanationsFile, 'utf8')) as Record<string, string>;
  for (const [key, text] of Object.entries(explanations)) {
    const typed = typedNumbers(text);
    assert.deepEqual(typed, [], `paper/explanations.json "${key}" types numbers: ${typed.join(', ')} (bind them with {{value ...}})`);
  }
  // a planted number word, a digit and a count in words are each caught
  const planted = explanations['layers-overall']!.replace('Our selector-only passes', 'Our selector-only, two of the three policies, passes');
  assert.deepEqual(typedNumbers(planted), ['two', 'three']);
  assert.deepEqual(typedNumbers('it accepted all of the semantic negatives and 4 of its rows'), ['4', 'all of the']);
});

test('the explanations\' placeholders are filled from the tables, like the paper\'s', () => {
  const withPlaceholder = buildPaper({ explanations: { 'layers-overall': 'Selector-only passed {{value layers_overall.vts_n where=browser:chromium,policy:selector-only fmt=int}} conditions.' } });
  assert.match(withPlaceholder.html, /<span class="explain">Selector-only passed <span class="value">2<\/span> conditions\.<\/span>/);
});

test('the source papers appear as figures beside ours, never as their sentences', () => {
  assert.doesNotMatch(fs.readFileSync(paperSource, 'utf8'), /<blockquote/);
  const values = readSourceValues();
  for (const group of new Set(values.values.map((v) => v.group))) assert.ok(built.comparisons.includes(group), `source figures of ${group} are not shown`);
  // a figure of ours that exists is shown beside the source's with the difference; one that does not says so
  assert.match(built.html, /<td>selector-only: VTS rate<\/td><td>Abstract<\/td><td class="num">[\d.]+%<\/td><td class="num">50\.0%<\/td><td class="num">[+-][\d.]+ points<\/td>/);
  assert.match(built.html, /<td>pilot, ordinary prompt: VTS rate \(SmolLM2\)<\/td><td>Abstract<\/td><td class="num">[\d.]+%<\/td><td class="num"><span class="nodata">no data<\/span><\/td>/);
});

test('every analysis table is in the paper, with its heading and the query that made it', () => {
  // evidence_latency_values is one row per verdict: it is drawn (figure latency), not printed;
  // evaluator_audit_traces is one row per trace: evaluator_audit counts it, and the report recounts from it
  const expected = tables.map((t) => t.name).filter((n) => n !== 'evidence_latency_values' && n !== 'evaluator_audit_traces');
  for (const name of expected) assert.ok(built.tables.some((t) => t.name === name), `table ${name} is not in the paper`);
  for (const t of built.tables) {
    assert.ok(built.html.includes(`<h3>${t.heading}</h3>`), `heading of ${t.name}`);
    const query = tables.find((d) => d.name === t.name)!.query;
    assert.ok(built.html.includes(`href="../../${query}"`), `query link of ${t.name} (${query})`);
  }
  assert.ok(built.html.includes('href="../../analysis/verdicts.ts"'));
  assert.ok(built.html.includes('href="../../analysis/deviations.ts"'));
  assert.doesNotMatch(built.html, /\{\{|\}\}/);
  assert.equal(built.figures.length, 8);
});

test('numbers come from the tables; missing data and missing explanations are said plainly', () => {
  // layers_paired sample, chromium, all templates: selector-only reaches VTS on 2 of 4 conditions
  assert.match(built.html, /selector-only reaches VTS on <span class="value">2\/4 = 50\.0% \(95% CI /);
  assert.match(built.html, /semantic-recovery alone on 2, selector-only alone on 1 of 4 pairs \(exact McNemar p = 1\)/);
  assert.match(built.html, /No registered data exists yet for arm <code>arm-b<\/code> of study <code>evidence<\/code>/);
  assert.match(built.html, /The planning pilot has not been run here/);
  // an empty table says why: the pilot's arm has no registered data
  assert.equal(built.tables.find((t) => t.name === 'layers_pilot')!.empty, 'no registered data of study layers, arm pilot yet: that arm has not been run');
  assert.equal(built.tables.find((t) => t.name === 'layers_overall')!.empty, undefined);
  assert.ok(built.warnings.includes('paper: the difference "layers-overall" has data but no explanation yet (paper/explanations.json)'));
  assert.ok(!built.warnings.some((w) => w.includes('"evidence-arm-b"')), 'no warning where there is no data to compare');
  const withExplanation = buildPaper({ explanations: { 'layers-overall': 'Our selector-only control waits for nothing, as the source paper describes.' } });
  assert.match(withExplanation.html, /<span class="explain">Our selector-only control waits for nothing/);
});

test('the HTML and the PDF exist, and the PDF carries every table as a bookmark and a link to its query', async () => {
  const html = writePaperHtml(built);
  const pdf = path.join(paths.paperBuild(), 'paper.pdf');
  await printPdf(html, pdf);
  assert.ok(fs.existsSync(html));
  const bytes = fs.readFileSync(pdf);
  assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const text = bytes.toString('latin1');
  const pdfString = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  for (const t of built.tables) {
    assert.ok(text.includes(`/Title (${pdfString(t.heading)})`), `the PDF outline lacks "${t.heading}"`);
  }
  for (const name of new Set(built.tables.map((t) => t.name))) {
    const query = tables.find((d) => d.name === name)!.query;
    assert.ok(text.includes(`/URI (file://`) && new RegExp(`/URI \\(file://[^)]*/${query.replace(/\./g, '\\.')}\\)`).test(text), `the PDF lacks the link to ${query}`);
  }
});
