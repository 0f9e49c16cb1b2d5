// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// verifyAnalysis: a reviewer's rerun of the reanalysis must give the committed bytes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot, paths } from '../../../core/paths.ts';
import { reanalyze } from '../../../analysis/reanalyze.ts';
import { renderFigures } from '../../../figures/render.ts';
import { verifyAnalysis } from '../../../pipeline/kernel/verify-analysis.ts';
import { writeManifest } from '../../../pipeline/kernel/manifest.ts';
import { figureFiles, tableFiles } from '../../../pipeline/kernel/analysis-files.ts';

let root: string;
const rawFile = () => path.join(root, 'data', 'raw', 'layers', 'main', 'run-1.jsonl');

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-verify-test-'));
  process.env.RSTACK_ROOT = root;
  fs.mkdirSync(path.dirname(rawFile()), { recursive: true });
  fs.copyFileSync(path.join(codeRoot, 'analysis', 'queries', 'layers_by_template.sample.jsonl'), rawFile());
  const result = await reanalyze();
  assert.deepEqual(result.problems, []);
  await writeManifest(paths.tablesManifest(), tableFiles());
  await renderFigures();
  await writeManifest(paths.figuresManifest(), figureFiles());
});
after(() => {
  delete process.env.RSTACK_ROOT;
  fs.rmSync(root, { recursive: true, force: true });
});

test('an untouched tree verifies', async () => {
  assert.deepEqual(await verifyAnalysis(), []);
});

test('an edited table is named', async () => {
  const file = path.join(paths.analysisOut(), 'layers_by_template.csv');
  const original = fs.readFileSync(file);
  fs.writeFileSync(file, original.toString().replace('chromium,cards', 'chromium,Cards'));
  try {
    const problems = await verifyAnalysis({ figures: false });
    assert.deepEqual(problems, ['analysis/out/layers_by_template.csv: differs from what data/raw regenerates (run make reanalyze figures)']);
  } finally {
    fs.writeFileSync(file, original);
  }
});

test('changed raw data: the tables and figures still matching their manifests are out of date, one problem each, with the next command', async () => {
  const original = fs.readFileSync(rawFile());
  fs.writeFileSync(rawFile(), original.toString().replace('"condition_id":"m1","policy":"selector-only"', '"condition_id":"m1","policy":"semantic-recovery"'));
  try {
    const problems = await verifyAnalysis();
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0]!, /^analysis\/out: \d+ files are out of date \(.*layers_by_template\.json.*\): they still match manifests\/tables\.sha256, .*Next: make reanalyze figures, then make verify$/);
    assert.doesNotMatch(problems[0]!, /layers_horizon/, 'a table the change does not touch stays quiet');
    assert.match(problems[1]!, /^figures\/out: \d+ files? (is|are) out of date .*manifests\/figures\.sha256/);
  } finally {
    fs.writeFileSync(rawFile(), original);
  }
});

test('changed raw data and an edited table: the edited table is named as such, not as out of date', async () => {
  const original = fs.readFileSync(rawFile());
  const table = path.join(paths.analysisOut(), 'layers_by_template.csv');
  const tableBytes = fs.readFileSync(table);
  fs.writeFileSync(rawFile(), original.toString().replace('"condition_id":"m1","policy":"selector-only"', '"condition_id":"m1","policy":"semantic-recovery"'));
  fs.writeFileSync(table, tableBytes.toString().replace('chromium,cards', 'chromium,Cards'));
  try {
    const problems = await verifyAnalysis({ figures: false });
    assert.ok(problems.includes('analysis/out/layers_by_template.csv: regenerated from data/raw it differs from manifests/tables.sha256'), problems.join('\n'));
    assert.ok(problems.includes('analysis/out/layers_by_template.csv: differs from what data/raw regenerates (run make reanalyze figures)'), problems.join('\n'));
    const outOfDate = problems.find((p) => p.includes('out of date'));
    assert.ok(outOfDate && !outOfDate.includes('layers_by_template.csv'), problems.join('\n'));
  } finally {
    fs.writeFileSync(rawFile(), original);
    fs.writeFileSync(table, tableBytes);
  }
});

test('a tree with neither rows nor a tables manifest has nothing to verify', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-verify-empty-'));
  process.env.RSTACK_ROOT = empty;
  try {
    assert.deepEqual(await verifyAnalysis(), []);
  } finally {
    process.env.RSTACK_ROOT = root;
    fs.rmSync(empty, { recursive: true, force: true });
  }
});

test('a missing manifest is named', async () => {
  const saved = fs.readFileSync(paths.tablesManifest());
  fs.rmSync(paths.tablesManifest());
  try {
    assert.deepEqual(await verifyAnalysis({ figures: false }), ['manifests/tables.sha256 is missing: run make reanalyze figures and commit it']);
  } finally {
    fs.writeFileSync(paths.tablesManifest(), saved);
  }
});
