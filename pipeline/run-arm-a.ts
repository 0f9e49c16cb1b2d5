// make run-arm-a: Arm A of the evidence study — the same 320 controlled conditions in Firefox ESR
// over WebDriver BiDi (Playwright's engine-neutral events; no CDP session), arm `arm-a`, as
// prereg/evidence-arm-a.md registers it. Prints the controlled arm's summary plus the paired
// comparison with the Chromium rows of the same conditions (discordant rows, exact McNemar).
//   data/tasks/evidence-controlled.jsonl ─▶ run-matrix (firefox) ─▶ data/raw/evidence/arm-a/
//   + data/raw/evidence/controlled/<newest>.jsonl ─▶ paired comparison
import fs from 'node:fs';
import path from 'node:path';
import { main, intOption } from '../core/cli.ts';
import { log } from '../core/log.ts';
import { messages } from '../core/messages.ts';
import { paths, rel } from '../core/paths.ts';
import { readJsonl } from '../core/jsonl.ts';
import { RStackError } from '../core/errors.ts';
import { formatPaired, pairedAcrossRuns } from '../core/evidence/summary.ts';
import { evidenceTasksPath } from './lib/evidence/tasks-file.ts';
import { formatRun, runMatrix } from './lib/evidence/run-matrix.ts';
import type { EvidenceRow } from './lib/evidence/run-condition.ts';

/** The newest Chromium controlled run: registered rows, or smoke rows when this run is a smoke. */
export function newestControlledRun(smoke: boolean): string {
  const dir = smoke ? paths.excludedArm('evidence', 'controlled') : paths.rawArm('evidence', 'controlled');
  const files = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl') && (!smoke || f.startsWith('smoke-chromium-'))).map((f) => path.join(dir, f))
    : [];
  if (!files.length) throw new RStackError(messages.evidenceNoPair(rel(dir)), { exitCode: 2 });
  return files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0]!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main({
    name: 'run-arm-a',
    summary: 'run the evidence study\'s 320 controlled conditions in Firefox (WebDriver BiDi), print the summary and the pairing with Chromium',
    options: {
      smoke: { type: 'boolean', default: false },
      workers: { type: 'string', default: '1' },
      limit: { type: 'string' },
      'run-id': { type: 'string' },
      tasks: { type: 'string' },
      'paired-with': { type: 'string' },
    },
    help: {
      smoke: 'a development run: rows go to data/excluded/evidence/arm-a/',
      workers: 'conditions run at once (the prereg fixes 1: timing, not outcomes, depends on it)',
      limit: 'only the first N conditions of the run order (a slice; some gates go unexercised)',
      'run-id': 'name of the run file (default: arm-a-firefox-<ledger head>, or smoke-firefox-<time>)',
      tasks: 'the task file (default: data/tasks/evidence-controlled.jsonl)',
      'paired-with': 'the Chromium rows to pair with (default: the newest controlled run; with --smoke, the newest Chromium smoke)',
    },
    async run(values) {
      const smoke = Boolean(values.smoke);
      const result = await runMatrix({
        arm: 'arm-a',
        browser: 'firefox',
        tasksFile: values.tasks ?? evidenceTasksPath(),
        smoke,
        workers: intOption(values.workers, 'workers', 1),
        limit: values.limit === undefined ? undefined : intOption(values.limit, 'limit', 320),
        runId: values['run-id'],
      });
      const lines = [formatRun(result)];
      let chromiumFile: string | undefined;
      try {
        chromiumFile = values['paired-with'] ?? newestControlledRun(smoke);
      } catch (error) {
        log({ kind: 'warn', message: (error as Error).message });
      }
      if (chromiumFile) {
        const chromium = readJsonl<EvidenceRow>(chromiumFile, { schema: 'trace' });
        lines.push('', formatPaired(`paired with Chromium (${rel(chromiumFile)}), per policy: Firefox correct only vs Chromium correct only, exact McNemar:`,
          pairedAcrossRuns(result.rows, chromium, ['firefox', 'chromium'])));
      }
      process.stdout.write(lines.join('\n') + '\n');
      if (!result.gatesPassed) {
        log({ kind: 'error', message: messages.evidenceGatesFailed(result.gates.filter((g) => g.failed.length || !g.checked).map((g) => g.id)) });
        return 1;
      }
    },
  });
}
