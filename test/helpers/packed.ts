// One of our packages as a user gets it: `npm pack` in its folder (its prepack builds dist/ with
// tsc), installed with playwright-core (packed from this repository's node_modules) into an empty
// project in a temporary folder, and a type-check there of code the test writes against it. The
// project knows nothing of this repository but the tarballs. For test/verifier/pack.test.ts and
// test/proxy/pack.test.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { codeRoot } from '../../core/paths.ts';

export const run = promisify(execFile);

export interface PackedProject {
  /** the temporary folder (tarballs, and the project in project/) */
  dir: string;
  project: string;
  /** node_modules/@rstackbench/<name> in the project */
  installed: string;
}

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

/**
 * Packs `folder` (verifier, proxy) and installs it into an empty project; `offline`: every
 * dependency from npm's cache (the verifier has none but its peer), else from the registry as a
 * user gets them. Asserts the tarball's name, that it ships its types and README and not its
 * sources. The folder is removed after the test.
 */
export async function packedProject(t: { after: (fn: () => void) => void }, folder: string, options: { offline: boolean }): Promise<PackedProject> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rstack-${folder}-pack-`));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const manifest = JSON.parse(fs.readFileSync(path.join(codeRoot, folder, 'package.json'), 'utf8')) as { name: string };
  const packed = (await npm(['pack', '--pack-destination', dir], path.join(codeRoot, folder))).stdout.trim().split('\n').at(-1)!;
  assert.equal(packed.replace(/-\d+\.\d+\.\d+\.tgz$/, ''), manifest.name.replace(/^@/, '').replace('/', '-'), `the tarball of ${manifest.name}`);
  const playwright = (await npm(['pack', path.join(codeRoot, 'node_modules', 'playwright-core'), '--pack-destination', dir], dir)).stdout.trim().split('\n').at(-1)!;
  const project = path.join(dir, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'outside', private: true, type: 'module' }));
  await npm(['install', options.offline ? '--offline' : '--prefer-offline', path.join(dir, packed), path.join(dir, playwright)], project);
  const installed = path.join(project, 'node_modules', ...manifest.name.split('/'));
  assert.ok(fs.existsSync(path.join(installed, 'dist', 'index.d.ts')), 'the package ships its types');
  assert.ok(fs.existsSync(path.join(installed, 'README.md')), 'and its README');
  assert.ok(!fs.existsSync(path.join(installed, 'src')), 'only the build is shipped');
  return { dir, project, installed };
}

/** Type-checks `source` (TypeScript importing the package) in the project, as a strict NodeNext user would. */
export async function typeChecks(project: string, source: string): Promise<void> {
  fs.writeFileSync(path.join(project, 'typed.ts'), source);
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2023', 'DOM'], types: [] }, files: ['typed.ts'] }));
  await run(path.join(codeRoot, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: project, encoding: 'utf8' });
}
