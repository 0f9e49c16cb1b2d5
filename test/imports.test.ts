// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The import rules of the tree (.dependency-cruiser.cjs), checked with dependency-cruiser: the real
// tree has no violation, and a planted one in a throw-away tree is named by its rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { codeRoot } from '../core/paths.ts';

const depcruise = path.join(codeRoot, 'node_modules', '.bin', 'depcruise');
const folders = ['core', 'verifier', 'proxy', 'pipeline', 'fixtures', 'analysis', 'figures', 'paper', 'report-src', 'test'];

test('the tree keeps its import rules (core a leaf, the verifier and the fault proxy packages of their own, nothing downstream imports the pipeline, the paper reads generated files, no cycles)', () => {
  const present = folders.filter((f) => fs.existsSync(path.join(codeRoot, f)));
  const out = execFileSync(depcruise, [...present, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: codeRoot, encoding: 'utf8' });
  assert.match(out, /no dependency violations found/);
});

test('a planted violation is named by its rule', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-imports-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (p: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  };
  fs.copyFileSync(path.join(codeRoot, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  fs.copyFileSync(path.join(codeRoot, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  write('pipeline/launch.ts', "export const launch = () => 1;\n");
  write('core/leaf.ts', "import { launch } from '../pipeline/launch.ts';\nexport const x = launch();\n");
  write('paper/build.ts', "import { y } from '../analysis/tables.ts';\nexport const z = y;\n");
  write('analysis/tables.ts', "export const y = 2;\n");
  write('report-src/build.ts', "import { y } from '../analysis/tables.ts';\nexport const w = y;\n");
  write('fixtures/a.ts', "import { b } from './b.ts';\nexport const a = () => b;\n");
  write('fixtures/b.ts', "import { a } from './a.ts';\nexport const b = () => a;\n");
  write('verifier/src/index.ts', "import { launch } from '../../pipeline/launch.ts';\nexport const v = launch();\n");
  write('core/uses-verifier.ts', "import { v } from '../verifier/src/index.ts';\nexport const w = v;\n");
  write('proxy/src/index.ts', "import { x } from '../../core/leaf.ts';\nexport const p = x;\n");
  const run = spawnSync(depcruise, ['core', 'verifier', 'proxy', 'pipeline', 'paper', 'report-src', 'analysis', 'fixtures', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  for (const rule of ['core-is-a-leaf', 'verifier-is-its-own-package', 'proxy-is-its-own-package', 'core-imports-no-verifier', 'paper-reads-only-generated-files', 'report-reads-only-generated-files', 'no-cycles']) assert.match(run.stdout, new RegExp(rule), rule);
});
