// isMain: an entry point's guard holds when node runs it from a path with a space, a % or a #, or
// through a symlink, where `file://${process.argv[1]}` does not; and not when the module is imported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from '../helpers/run.ts';

const entry = pathToFileURL(path.join(import.meta.dirname, '..', '..', 'core', 'entry.ts')).href;

test('a script in a folder named with a space, % and #, run directly and through a symlink, is main; imported, it is not', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb entry 100% #1 '));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const script = path.join(dir, 'my script.ts');
  fs.writeFileSync(script, `import { isMain } from ${JSON.stringify(entry)};\nconsole.log(isMain(import.meta.url) ? 'main' : 'imported');\n`);
  fs.symlinkSync(script, path.join(dir, 'link.ts'));
  fs.writeFileSync(path.join(dir, 'importer.ts'), `import './my script.ts';\n`);
  const node = (file: string) => run(process.execPath, ['--import', 'tsx', file], { cwd: path.join(import.meta.dirname, '..', '..') });
  for (const file of [script, path.join(dir, 'link.ts')]) {
    const ran = await node(file);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout.trim(), 'main', file);
  }
  const imported = await node(path.join(dir, 'importer.ts'));
  assert.equal(imported.stdout.trim(), 'imported');
});
