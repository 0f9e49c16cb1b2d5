// One writer per run slot. A run slot is what chooses a run file: the study, the arm and the run-id
// prefix (with the shard), and for a smoke run its selection. runArm holds the slot's lock from before
// it chooses the run file until the run's end line and manifest are written, so a second process that
// would write the same run file — the same shard typed in two terminals, a requeued Slurm task beside
// its first attempt, a restarted pod — is refused (exit 2, naming the holder) before it writes a row.
// The slot, not the file: stamped run ids (<prefix>-<time>) would let two starts a second apart choose
// two fresh files of one run.
//
// Why a kernel lock (flock(2)) on a descriptor of our own, taken by util-linux flock(1):
// - the kernel releases it when its holder ends, however it ends (SIGKILL, OOM, a crash): a killed run
//   leaves no stale lock, so no resume ever clears one by hand, and there is no "is that pid still
//   alive?" guess (pids are reused; a pid on another host cannot be asked) and no race between two
//   processes breaking the same stale lock file, because nothing is ever broken;
// - on NFS, a cluster's shared data root, Linux carries flock as a whole-file POSIX lock, which holds
//   across nodes, and the server drops a lost node's locks when its lease ends;
// - Node has no flock(2). flock(1) is given our descriptor as its fd 3 (`flock -xn 3`, the pattern of
//   its manual's `( flock -n 9 || exit 1; … ) 9>lockfile`): it locks the open file description we
//   share and exits, and the lock stays with our descriptor. Node opens files close-on-exec, so no
//   browser or agent we start inherits it; it goes when we close it or when we end.
// The lock file keeps, beside the lock, who took it last (pid, host, start), for the refusal's message;
// its content is never what decides. The files live in <output root>/.state/run-locks/ (git-ignored,
// outside data/, so no manifest lists them), and stay: an unlocked file is nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { paths, rel } from '../../core/paths.ts';
import { sha256 } from '../../core/hash.ts';
import { RStackError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';

export interface RunSlot {
  study: string;
  arm: string;
  /** the run-id prefix, the shard included (runPrefixOf) */
  prefix: string;
  smoke: boolean;
  /** a smoke run's --only/--shard text: smoke runs of other selections write other files */
  selection?: string | null;
}

/** Who holds a slot, as its lock file tells. */
export interface SlotHolder { pid: number; host: string; started_at: string; command: string }

export interface RunLock {
  file: string;
  /** closes the descriptor: the lock is free */
  release(): void;
}

/** The slot's lock file: one per study, arm and prefix (smoke runs: and selection). */
export function slotLockFile(slot: RunSlot): string {
  const smoke = slot.smoke ? `.smoke-${sha256(slot.selection ?? '').slice(0, 12)}` : '';
  return path.join(paths.runLocks(), `${slot.study}.${slot.arm}.${slot.prefix}${smoke}.lock`);
}

const slotName = (slot: RunSlot) => `${slot.study}/${slot.arm} ${slot.prefix}${slot.smoke ? ` (smoke${slot.selection ? `, ${slot.selection}` : ''})` : ''}`;

const CONFLICT = 75; // flock's exit code when another holds the lock (-E); EX_TEMPFAIL

function readHolder(file: string): SlotHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as SlotHolder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

const aliveHere = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The holder's note, once it is written: it takes the lock first and writes its note after, so a
 * refused process may read the note of an earlier holder (or none) for a moment. A note of a process
 * that no longer runs here, or none, is read again for up to a second before it is reported as it is.
 */
function holderOf(file: string): SlotHolder | null {
  const deadline = Date.now() + 1000;
  for (;;) {
    const h = readHolder(file);
    if ((h && (h.host !== os.hostname() || aliveHere(h.pid))) || Date.now() > deadline) return h;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

/** Takes the slot's lock, or throws (exit 2) naming the process that holds it. Never waits for it. */
export function lockRunSlot(slot: RunSlot): RunLock {
  const file = slotLockFile(slot);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // r+ after creating: an exclusive flock over NFS is a POSIX write lock, which needs a descriptor open for writing
  fs.closeSync(fs.openSync(file, 'a'));
  const fd = fs.openSync(file, 'r+');
  try {
    const r = spawnSync('flock', ['--exclusive', '--nonblock', '--conflict-exit-code', String(CONFLICT), '3'], { stdio: ['ignore', 'ignore', 'pipe', fd], encoding: 'utf8' });
    if (r.error) throw new RStackError(messages.runLock.noFlock(r.error.message), { cause: r.error });
    if (r.status === CONFLICT) throw new RStackError(messages.runLock.busy(slotName(slot), holderOf(file), rel(file)), { exitCode: 2 });
    if (r.status !== 0) throw new RStackError(messages.runLock.failed(rel(file), r.status, r.signal, (r.stderr ?? '').trim()));
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  // the note is for a refused process's message only: when it cannot be written (a full disk), the
  // lock holds all the same, and the run's own first write says what is wrong
  try {
    const note: SlotHolder = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), command: process.argv.slice(1).join(' ') };
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, JSON.stringify(note) + '\n', 0);
  } catch {
    // see above
  }
  let open = true;
  return {
    file,
    release: () => {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
    },
  };
}

/** Runs fn holding the slot's lock; released when fn settles (and by the kernel if we are killed). */
export async function withRunSlot<T>(slot: RunSlot, fn: () => Promise<T> | T): Promise<T> {
  const lock = lockRunSlot(slot);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
