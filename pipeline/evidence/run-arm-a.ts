// make run-arm-a: Arm A of the evidence study — the same 320 controlled conditions in Firefox ESR
// over WebDriver BiDi (Playwright's engine-neutral events; no CDP session), arm `arm-a`, as
// prereg/evidence-arm-a.md registers it. Prints the controlled arm's summary plus the paired
// comparison with the Chromium rows of the same conditions (discordant rows, exact McNemar).
//   data/tasks/evidence-controlled.jsonl ─▶ run-matrix (firefox) ─▶ data/raw/evidence/arm-a/
//   + the registered data/raw/evidence/controlled/ run ─▶ paired comparison
import { main } from '../../core/cli.ts';
import { runFlags } from '../kernel/run-flags.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { paths, rel } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import { RStackError } from '../../core/errors.ts';
import { runSummary } from '../../analysis/run-summary.ts';
import type { EvidenceRow } from '../../analysis/rows.ts';
import { evidenceTasksPath } from './tasks-file.ts';
import { existingRun } from '../kernel/run-files.ts';
import { formatRun, runMatrix, gateExit, matrixOptions } from './matrix.ts';
import { isMain } from '../../core/entry.ts';

/** The Chromium controlled run to pair with: the registered one, or the newest smoke when this run is a smoke. */
export function controlledRunToPair(smoke: boolean): string {
  const found = existingRun({ study: 'evidence', arm: 'controlled', prefix: 'evidence-controlled-chromium', stamped: true }, smoke);
  if (!found) throw new RStackError(messages.evidenceNoPair(rel(smoke ? paths.excludedArm('evidence', 'controlled') : paths.rawArm('evidence', 'controlled'))), { exitCode: 2 });
  return found;
}

if (isMain(import.meta.url)) {
  await main({
    name: 'run-arm-a',
    summary: 'run the evidence study\'s 320 controlled conditions in Firefox (WebDriver BiDi), print the summary and the pairing with Chromium',
    options: {
      ...matrixOptions,
      'paired-with': { type: 'string', help: 'the Chromium rows to pair with (default: the newest controlled run; with --smoke, the newest Chromium smoke)' },
    },
    async run(values) {
      const smoke = values.smoke;
      const result = await runMatrix({ arm: 'arm-a', browser: 'firefox', tasksFile: values.tasks ?? evidenceTasksPath(), ...runFlags(values) });
      const lines = [formatRun(result)];
      let chromiumFile: string | undefined;
      try {
        chromiumFile = values['paired-with'] ?? controlledRunToPair(smoke);
      } catch (error) {
        log({ kind: 'warn', message: (error as Error).message });
      }
      if (chromiumFile) {
        // the Firefox rows are written by now: a bad pairing file costs the comparison, not the summary
        try {
          const chromium = readJsonl<EvidenceRow>(chromiumFile, { schema: 'trace' });
          lines.push('', `paired with Chromium (${rel(chromiumFile)}):`, runSummary([...chromium, ...result.rows], [{ name: 'evidence_engines', hide: ['pairs', 'both_n', 'neither_n'] }]));
        } catch (error) {
          log({ kind: 'warn', message: `no pairing with ${rel(chromiumFile)}: ${(error as Error).message}` });
        }
      }
      process.stdout.write(lines.join('\n') + '\n');
      return gateExit(result, smoke);
    },
  });
}
