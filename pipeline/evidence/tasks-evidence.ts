// make tasks-evidence: writes the controlled matrix of the evidence study to
// data/tasks/evidence-controlled.jsonl. Deterministic: the same seed writes the same bytes,
// and an existing file that differs is refused unless --force (it may already be frozen).
//   fixtures/evidence/tasks.ts (families, seeded order) ─▶ data/tasks/evidence-controlled.jsonl
import { main } from '../../core/cli.ts';
import { controlledMatrix, generateTasks } from '../../fixtures/evidence/tasks.ts';
import { evidenceTasksPath } from './tasks-file.ts';
import { checkOption, jsonlOf, writeGenerated } from '../kernel/generated.ts';

await main({
  name: 'tasks-evidence',
  summary: 'write the evidence study\'s 320 controlled conditions to data/tasks/evidence-controlled.jsonl',
  options: {
    ...checkOption,
    force: { type: 'boolean', default: false, help: 'overwrite a file that differs (refreeze afterwards)' },
  },
  async run(values) {
    const tasks = generateTasks(controlledMatrix);
    return writeGenerated(evidenceTasksPath(), jsonlOf('evidence-task', tasks, 'generated task'), { what: `${tasks.length} conditions`, ...values });
  },
});
