// Turns on the machine for make test's files, which its runner (test/helpers/run-tests.ts) starts
// several at a time (TEST_CONCURRENCY): a file whose header has a line beginning `// shares the machine:` (with
// the reason it may) runs beside other such files; every other file runs alone, with no other test
// file running. Alone is the default, so a new test that watches a timing window, measures, or
// compares a rerun's outcomes is never run beside another by accident.
//
// test/helpers/take-turn.mjs, loaded with --import before each test file (Node's runner passes its
// --import flags on to the file's process), waits for the file's turn before its tests are even
// declared, and gives the turn back when the process exits. The turns are a readers-writer lock in
// files, in a folder of the runner's own (named after its process id, the test files' parent), so
// that two runs never meet:
// - alone: mkdir `alone` (atomic; one holder), then wait until no sharer holds a turn;
// - sharing: write `shared/<pid>`, then look for `alone`; if it is there, take the file back and
//   wait. Each side writes before it reads the other's mark, so of two that start together at least
//   one sees the other: never both in.
// A holder whose process is gone (killed) is cleared by the next one that finds it.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

/** The file each test file's process appends its turn to (file, alone or shares, taken and given back in ms), named after the runner's process id. */
export const turnTimes = (runner: number) => path.join(os.tmpdir(), `rstackbench-test-times-${runner}.tsv`);

/** The header marker of a file that may run beside other sharing files. */
export const sharesMarker = '// shares the machine:';

/** Whether a test file declares, in its leading comment block, that it may share the machine. */
export function sharesTheMachine(file: string): boolean {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith(sharesMarker)) return true;
    if (!line.startsWith('//')) return false;
  }
  return false;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for this process's turn in `dir`; returns the function that gives it back. */
export async function takeTurn(dir: string, alone: boolean): Promise<() => void> {
  const shared = path.join(dir, 'shared');
  const exclusive = path.join(dir, 'alone');
  const holderGone = () => {
    try {
      const pid = Number(fs.readFileSync(path.join(exclusive, 'pid'), 'utf8'));
      if (pid > 0 && !alive(pid)) fs.rmSync(exclusive, { recursive: true, force: true });
    } catch {
      // no pid written yet, or already gone: its holder is starting or has left
    }
  };
  // the last one out removes the folders (rmdir refuses while anything is in them), so a taker
  // makes them again on every try
  const leave = (mark: string) => {
    fs.rmSync(mark, { recursive: true, force: true });
    for (const d of [shared, dir]) {
      try {
        fs.rmdirSync(d);
      } catch {
        // someone is in it, or came in since: theirs to remove
      }
    }
  };
  if (alone) {
    for (;;) {
      fs.mkdirSync(shared, { recursive: true });
      try {
        fs.mkdirSync(exclusive);
        break;
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed by the last one out: make it again
        if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') throw cause;
        holderGone();
        await sleep(200);
      }
    }
    fs.writeFileSync(path.join(exclusive, 'pid'), String(process.pid));
    for (;;) {
      let marks: string[] = [];
      try {
        marks = fs.readdirSync(shared);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause; // the last sharer out removed it: none left
      }
      const sharers = marks.filter((name) => {
        if (alive(Number(name))) return true;
        fs.rmSync(path.join(shared, name), { force: true });
        return false;
      });
      if (sharers.length === 0) break;
      await sleep(200);
    }
    return () => leave(exclusive);
  }
  const mine = path.join(shared, String(process.pid));
  for (;;) {
    fs.mkdirSync(shared, { recursive: true });
    try {
      fs.writeFileSync(mine, '');
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
      continue; // the last one out removed the folder between the two lines
    }
    if (!fs.existsSync(exclusive)) break;
    fs.rmSync(mine, { force: true });
    holderGone();
    await sleep(200);
  }
  return () => leave(mine);
}
