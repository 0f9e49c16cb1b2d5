// make reanalyze: every table of analysis/out regenerated from data/raw by DuckDB and by an
// independent TypeScript recount that must agree (analysis/reanalyze.ts draws the steps), then
// manifests/tables.sha256 over what was written.
import { main } from '../../core/cli.ts';
import { paths, rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { CheckError } from '../../core/errors.ts';
import { reanalyze } from '../../analysis/reanalyze.ts';
import { tableFiles } from '../kernel/analysis-files.ts';
import { writeManifest } from '../kernel/manifest.ts';

await main({
  name: 'reanalyze',
  summary: 'regenerate every table in analysis/out from data/raw (DuckDB SQL and an independent recount that must agree)',
  async run() {
    const result = await reanalyze();
    const { layersRows, layersFiles, evidenceRows, evidenceFiles } = result.read;
    log({ kind: 'info', message: messages.reanalyzeRead(layersRows, layersFiles, evidenceRows, evidenceFiles) });
    if (result.problems.length) {
      for (const p of result.problems) log({ kind: 'error', message: p });
      throw new CheckError(messages.reanalyzeFailed(result.problems.length), result.problems);
    }
    if (layersRows + evidenceRows === 0) log({ kind: 'info', message: messages.reanalyzeNoData() });
    log({ kind: 'info', message: messages.reanalyzeAgreed(Object.keys(result.tables).length, result.cellsCompared, result.verdictsRechecked) });
    await writeManifest(paths.tablesManifest(), tableFiles());
    log({ kind: 'info', message: messages.reanalyzeWrote(result.written.length, rel(paths.analysisOut())) + `; hashes in ${rel(paths.tablesManifest())}` });
  },
});
