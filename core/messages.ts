// Every message a user reads, in one place (vega-lite's src/log/message.ts).
export const messages = {
  refreeze: 'make freeze REASON="why the frozen inputs changed"',
  noFreeze: () => `no freeze yet: manifests/ledger.jsonl is missing or empty. Freeze the preregistrations and tasks first: make freeze REASON="initial freeze"`,
  changedSinceFreeze: (files: string[]) =>
    `refusing to run: ${files.length === 1 ? 'this file differs' : 'these files differ'} from the ledger head:\n${files.map((f) => `  ${f}`).join('\n')}\n` +
    `A registered input changed after it was frozen. If the change is intended, record it as an amendment and refreeze: ${messages.refreeze}`,
  freezeUnchanged: (seq: number) => `nothing changed since ledger entry ${seq}; no entry added`,
  freezeAdded: (seq: number, count: number, head: string) => `ledger entry ${seq}: ${count} files frozen, head ${head.slice(0, 12)}`,
  tornLineMoved: (file: string, to: string) => `recovered ${file}: a torn last line (a crash mid-write) moved to ${to}`,
  verifyOk: (checks: number) => `OK (${checks} checks)`,
  verifyFailed: (count: number) => `verify failed: ${count} problem${count === 1 ? '' : 's'}`,
  // the evidence study
  evidenceTasksWritten: (file: string, n: number) => `${file}: ${n} conditions written`,
  evidenceTasksUnchanged: (file: string) => `${file}: unchanged (the generator writes the same bytes)`,
  evidenceTasksDiffer: (file: string) =>
    `${file} differs from what the generator writes. It may be frozen: record why in an amendment, rerun with --force, then ${messages.refreeze}`,
  evidenceNoTasks: (file: string) => `no tasks at ${file}: make tasks-evidence first, then make freeze`,
  evidenceRunStart: (arm: string, browser: string, todo: number, done: number, file: string) =>
    `evidence/${arm} in ${browser}: ${todo} conditions to run${done ? ` (${done} already in ${file}, resuming)` : ''} → ${file}`,
  evidenceRetry: (id: string, error: string) => `${id}: attempt failed (${error}); retrying once in a fresh context`,
  evidenceGatesFailed: (ids: string[]) => `instrumentation gates failed: ${ids.join(', ')}. A smoke run must pass every gate before the registered run.`,
  evidenceNoPair: (dir: string) => `no Chromium controlled run in ${dir} to pair with; pass --paired-with FILE or run make run-controlled first`,
};
