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
};
