// Preloaded by make test before each test file (--import, by absolute path): waits for the file's
// turn on the machine (test/helpers/turns.ts) before the file's module runs, and gives it back at
// exit. The turns' folder is the runner's own: the test files' processes are its children.
//
// Plain JavaScript, and it does nothing outside a test file's main thread: Node hands its --import
// flags on to every worker thread and to children started with process.execArgv, which may load
// before tsx (a .ts preload would fail there) and must never take a turn of their own.
import { isMainThread } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

const file = process.argv[1];
if (isMainThread && process.env.NODE_TEST_CONTEXT && file?.endsWith('.test.ts')) {
  const { sharesTheMachine, takeTurn, turnTimes } = await import('./turns.ts');
  const alone = !sharesTheMachine(file);
  const giveBack = await takeTurn(path.join(os.tmpdir(), `rstackbench-test-turns-${process.ppid}`), alone);
  // how long the file held its turn (its hooks and its process's start included), for the runner's
  // end screen: one line a file, appended (a line this short is written whole)
  const took = Date.now();
  process.on('exit', () => {
    giveBack();
    fs.appendFileSync(turnTimes(process.ppid), `${file}\t${alone ? 'alone' : 'shares'}\t${took}\t${Date.now()}\n`);
  });
}
