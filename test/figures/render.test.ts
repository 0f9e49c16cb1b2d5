// shares the machine: it renders files (and pages) and asserts what they contain, never how fast.
// Figures: every spec draws from a table the reanalysis writes; rendering is byte-identical on a
// rerun; a figure without data says so; text is measured with the font it is drawn in.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { figureNames, renderFigures, specsDir, tableOf, font } from '../../figures/render.ts';
import { readFontMetrics, widthFunction } from '../../figures/text-metrics.ts';
import { tables } from '../../analysis/tables.ts';
import { reanalyze } from '../../analysis/reanalyze.ts';
import { verdictRegistry } from '../../analysis/verdicts.ts';

let root: string;
before(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-figures-')); });
after(() => fs.rmSync(root, { recursive: true, force: true }));

test('every figure spec names a table the reanalysis writes', () => {
  const names = figureNames();
  assert.ok(names.length >= 7, `only ${names.length} figure specs`);
  for (const name of names) {
    const spec = JSON.parse(fs.readFileSync(path.join(specsDir, `${name}.vl.json`), 'utf8'));
    const table = tableOf(spec, name);
    assert.ok(tables.some((t) => t.name === table), `${name} draws from ${table}, which analysis/tables.ts does not define`);
  }
});

test('rendering a sample twice gives the same bytes; the PNGs are PNGs; the data reaches the SVG', async () => {
  // a sample analysis/out: the query samples laid out as a data tree, reanalysed
  const raw = path.join(root, 'raw');
  const q = (name: string) => fs.readFileSync(path.join(codeRoot, 'analysis', 'queries', `${name}.sample.jsonl`), 'utf8');
  fs.mkdirSync(path.join(raw, 'layers', 'main'), { recursive: true });
  fs.mkdirSync(path.join(raw, 'layers', 'horizon'), { recursive: true });
  fs.writeFileSync(path.join(raw, 'layers', 'main', 'run.jsonl'), q('layers_by_layer').split('\n').filter((l) => l.includes('"arm":"main"')).join('\n') + '\n');
  fs.writeFileSync(path.join(raw, 'layers', 'horizon', 'run.jsonl'), q('layers_horizon').split('\n').filter((l) => l.includes('"arm":"horizon"')).join('\n') + '\n');
  const dataDir = path.join(root, 'out');
  const result = await reanalyze({ rawDir: raw, outDir: dataDir, registry: verdictRegistry({}) });
  assert.deepEqual(result.problems, []);

  const first = path.join(root, 'figures-1');
  const second = path.join(root, 'figures-2');
  const written = await renderFigures({ dataDir, outDir: first });
  assert.deepEqual(await renderFigures({ dataDir, outDir: second }), written);
  assert.equal(written.length, 2 * figureNames().length);
  for (const f of written) assert.ok(fs.readFileSync(path.join(first, f)).equals(fs.readFileSync(path.join(second, f))), `${f} differs on a rerun`);
  for (const f of written.filter((f) => f.endsWith('.png'))) {
    assert.deepEqual([...fs.readFileSync(path.join(first, f)).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${f} is not a PNG`);
  }
  const horizon = fs.readFileSync(path.join(first, 'horizon.svg'), 'utf8');
  assert.match(horizon, new RegExp(font.family));
  assert.doesNotMatch(horizon, /No registered data yet/);
  // the sample's state rows reach VTS 2/2 at 750 ms: the point carries it
  assert.match(horizon, /aria-label="scoring horizon \(ms after the action\): 750; VTS: 100%; layer: state"/);
  assert.match(horizon, /aria-label="scoring horizon \(ms after the action\): 50; VTS: 0%; layer: state"/);
  const production = fs.readFileSync(path.join(first, 'production.svg'), 'utf8');
  assert.match(production, /No registered data yet \(analysis\/out\/evidence_production\.json has no rows\)/);
});

test('a missing table is a clear error', async () => {
  await assert.rejects(renderFigures({ dataDir: path.join(root, 'nowhere'), outDir: path.join(root, 'x') }), /run make reanalyze first/);
});

test('text is measured with the font it is drawn in', () => {
  const width = widthFunction(readFontMetrics(font.files[0]!), readFontMetrics(font.files[1]!));
  assert.ok(width({ fontSize: 11 }, 'iiii') < width({ fontSize: 11 }, 'WWWW'), 'a narrow glyph is narrower than a wide one');
  assert.ok(width({ fontSize: 11, fontWeight: 'bold' }, 'semantic-recovery') > width({ fontSize: 11 }, 'semantic-recovery'), 'bold is wider');
  assert.ok(Math.abs(width({ fontSize: 22 }, 'abc') - 2 * width({ fontSize: 11 }, 'abc')) < 1e-9, 'width scales with the size');
  // far narrower than vega's 0.8 em guess, which truncated the labels
  assert.ok(width({ fontSize: 10 }, 'verification-aware') < 0.8 * 10 * 'verification-aware'.length * 0.8);
  assert.equal(width({ fontSize: 10, limit: 20 }, 'a long label that is cut'), 20);
});
