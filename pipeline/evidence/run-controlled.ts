// make run-controlled: the evidence study's controlled matrix in Chromium over raw CDP (arm
// `controlled`), as prereg/evidence-controlled.md registers it. See pipeline/evidence/matrix.ts
// for the flow. Prints the summary on exit; a smoke run whose instrumentation gate failed exits 1,
// a registered one reports the failed gates and stays registered.
import { main } from '../../core/cli.ts';
import { runFlags } from '../kernel/run-flags.ts';
import { evidenceTasksPath } from './tasks-file.ts';
import { formatRun, runMatrix, gateExit, matrixOptions } from './matrix.ts';
import { isMain } from '../../core/entry.ts';

if (isMain(import.meta.url)) {
  await main({
    name: 'run-controlled',
    summary: 'run the evidence study\'s 320 controlled conditions in Chromium (CDP) and print the summary',
    options: matrixOptions,
    async run(values) {
      const result = await runMatrix({ arm: 'controlled', browser: 'chromium', tasksFile: values.tasks ?? evidenceTasksPath(), ...runFlags(values) });
      process.stdout.write(formatRun(result) + '\n');
      return gateExit(result, values.smoke);
    },
  });
}
