// rstackbench under-load: the command runs while the hog's busy processes do, its exit code is the
// verb's, and no busy process outlives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../../helpers/run.ts';
import { codeRoot } from '../../../core/paths.ts';

const bin = path.join(codeRoot, 'bin/rstackbench');
// the hog's children are `node -e <code>` whose code checks its parent's pid (cpu-hog.ts)
const hogPids = () =>
  fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('process.ppid !=='); } catch { return false; }
  });
// what the wrapped command sees: how many busy processes are running beside it (the needle split, so
// that its own command line does not hold it)
const counter = `const fs=require('fs');const n=fs.readdirSync('/proc').filter(p=>/^\\d+$/.test(p)).filter(p=>{try{return fs.readFileSync('/proc/'+p+'/cmdline','utf8').includes('process.ppid'+' !==')}catch{return false}}).length;console.log('busy '+n);process.exit(7)`;

test('under-load runs the command beside one busy process per --processes and passes on its exit code; none is left after', async () => {
  const before = hogPids().length;
  const ended = await run(bin, ['under-load', '--processes', '3', '--seconds', '120', '--', process.execPath, '-e', counter]);
  assert.equal(ended.exitCode, 7, ended.stderr);
  assert.match(ended.stdout, new RegExp(`^busy ${before + 3}$`, 'm'));
  assert.match(ended.stderr, /under-load: 3 busy-looping processes/);
  // the hog is SIGKILLed when the command ends; wait until they are reaped (no time asserted)
  while (hogPids().length > before) await new Promise((r) => setTimeout(r, 50));
  assert.equal(hogPids().length, before);
});

test('under-load without a command is a usage error (exit 2) and starts nothing', async () => {
  const before = hogPids().length;
  const ended = await run(bin, ['under-load', '--processes', '2']);
  assert.equal(ended.exitCode, 2);
  assert.match(ended.stderr, /no command/);
  assert.equal(hogPids().length, before);
});
