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
  // analysis: make reanalyze, make figures, make paper
  reanalyzeNoData: () => 'no registered rows under data/raw yet: every table is written with its columns and no rows',
  reanalyzeRead: (layers: number, layerFiles: number, evidence: number, evidenceFiles: number) =>
    `read ${layers} layers rows from ${layerFiles} file${layerFiles === 1 ? '' : 's'} and ${evidence} evidence rows from ${evidenceFiles} file${evidenceFiles === 1 ? '' : 's'}`,
  reanalyzeAgreed: (tables: number, cells: number, verdicts: number) =>
    `SQL and the TypeScript recount agree on ${cells} cells of ${tables} tables; ${verdicts} evidence verdicts recomputed from their events`,
  reanalyzeWrote: (count: number, dir: string) => `wrote ${count} files to ${dir}`,
  reanalyzeFailed: (count: number) =>
    `reanalysis failed: ${count} problem${count === 1 ? '' : 's'} (listed above); no table was written`,
  figuresWrote: (count: number, dir: string) => `rendered ${count} figures (SVG and PNG) to ${dir}`,
  figuresMissingTable: (table: string) => `figure data analysis/out/${table}.json is missing: run make reanalyze first`,
  paperWrote: (files: string[]) => `wrote ${files.join(', ')}`,
  paperMissingTable: (table: string) => `the paper needs analysis/out/${table}.json: run make reanalyze first`,
  paperUnknownPlaceholder: (where: string, text: string) => `${where}: unknown placeholder ${text}`,
};
