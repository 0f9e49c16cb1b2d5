// Preloaded by make test before each test file (--import): waits for the file's turn on the
// machine (test/helpers/turns.ts) before the file's module runs, and gives it back at exit. The
// turns' folder is the runner's own: the test files' processes are its children.
import os from 'node:os';
import path from 'node:path';
import { sharesTheMachine, takeTurn } from './turns.ts';

const file = process.argv[1];
if (file?.endsWith('.test.ts')) {
  const giveBack = await takeTurn(path.join(os.tmpdir(), `rstackbench-test-turns-${process.ppid}`), !sharesTheMachine(file));
  process.on('exit', giveBack);
}
