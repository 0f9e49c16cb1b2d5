// make run-controlled: the evidence study's controlled matrix in Chromium over raw CDP (arm
// `controlled`), as prereg/evidence-controlled.md registers it. See pipeline/lib/evidence/run-matrix.ts
// for the flow. Prints the summary on exit; exit code 1 when an instrumentation gate failed.
import { main, intOption } from '../core/cli.ts';
import { log } from '../core/log.ts';
import { messages } from '../core/messages.ts';
import { evidenceTasksPath } from './lib/evidence/tasks-file.ts';
import { formatRun, runMatrix, gateExit } from './lib/evidence/run-matrix.ts';

if (import.meta.url === `file://${process.argv[1]}`) {
  await main({
    name: 'run-controlled',
    summary: 'run the evidence study\'s 320 controlled conditions in Chromium (CDP) and print the summary',
    options: {
      smoke: { type: 'boolean', default: false },
      workers: { type: 'string', default: '1' },
      only: { type: 'string' },
      redo: { type: 'string' },
      tasks: { type: 'string' },
    },
    help: {
      smoke: 'a development run: rows go to data/excluded/evidence/controlled/',
      workers: 'conditions run at once (the prereg fixes 1: timing, not outcomes, depends on it)',
      only: 'a regular expression over condition ids (only with --smoke; some gates may go unexercised)',
      redo: 'REASON: move the registered run aside to data/excluded/ with this reason, and run again from zero',
      tasks: 'the task file (default: data/tasks/evidence-controlled.jsonl)',
    },
    async run(values) {
      const result = await runMatrix({
        arm: 'controlled',
        browser: 'chromium',
        tasksFile: values.tasks ?? evidenceTasksPath(),
        smoke: Boolean(values.smoke),
        workers: intOption(values.workers, 'workers', 1),
        only: values.only,
        redo: values.redo,
      });
      process.stdout.write(formatRun(result) + '\n');
      return gateExit(result, Boolean(values.smoke));
    },
  });
}
