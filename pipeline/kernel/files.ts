import fs from 'node:fs';
import path from 'node:path';

export { listFiles, countRows } from '../../core/files.ts';

/** Writes data through a fresh descriptor opened with flags, fsynced before it is closed. */
function writeSynced(file: string, flags: 'w' | 'a', data: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, flags);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file atomically: a temp file beside it, fsynced, then renamed over it. */
export function writeFileAtomic(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeSynced(tmp, 'w', data);
  fs.renameSync(tmp, file);
}

/** Appends one line and fsyncs it before returning. */
export function appendDurable(file: string, line: string): void {
  writeSynced(file, 'a', line);
}

/** Runs fn while holding an exclusive lock file (O_EXCL), so two freezes never interleave. */
export async function withLock<T>(lockFile: string, fn: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = fs.openSync(lockFile, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    fs.closeSync(fd);
    fs.rmSync(lockFile, { force: true });
  }
}
