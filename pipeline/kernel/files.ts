// Durable writes: every byte written, fsynced, or a WriteError naming the file and the reason (a full
// disk says "no space left on device", never a bare ENOSPC stack) — and nothing half-written left:
// an append that fails is cut back to where it began, a failed atomic write leaves no temporary file.
import fs from 'node:fs';
import path from 'node:path';
import { WriteError } from '../../core/errors.ts';
import { rel } from '../../core/paths.ts';

export { listFiles, countRows } from '../../core/files.ts';

/** Writes data through a fresh descriptor opened with flags, fsynced before it is closed; `named`: the file a failure names. */
function writeSynced(file: string, flags: 'w' | 'a', data: string | Buffer, named = file): void {
  let fd: number;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fd = fs.openSync(file, flags);
  } catch (cause) {
    throw new WriteError(rel(named), cause);
  }
  const bytes = Buffer.from(data);
  let start = -1;
  let written = 0;
  try {
    start = fs.fstatSync(fd).size;
    // one write(2) may write less than it was given (a disk filling up): write the rest, or fail
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } catch (cause) {
    // an append cut back to where it began, so no torn line stays behind — unless another process
    // appended after it (a shared log), whose line is not ours to cut
    if (flags === 'a' && written > 0 && start >= 0) {
      try {
        if (fs.fstatSync(fd).size === start + written) fs.ftruncateSync(fd, start);
      } catch {
        // the resume's reader moves a torn last line aside (trace-writer.ts)
      }
    }
    throw new WriteError(rel(named), cause);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file atomically: a temp file beside it, fsynced, then renamed over it; on a failure the temp file is removed. */
export function writeFileAtomic(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeSynced(tmp, 'w', data, file);
    fs.renameSync(tmp, file);
  } catch (cause) {
    fs.rmSync(tmp, { force: true });
    throw cause instanceof WriteError ? cause : new WriteError(rel(file), cause);
  }
}

/** Appends one line and fsyncs it before returning; on a failure the file is as it was. */
export function appendDurable(file: string, line: string): void {
  writeSynced(file, 'a', line);
}

/** Writes a whole file, fsynced (not atomic: for a new file of its own, e.g. a torn line moved aside). */
export function writeDurable(file: string, data: string | Buffer): void {
  writeSynced(file, 'w', data);
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
