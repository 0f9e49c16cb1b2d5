// make tasks-evidence: writes the controlled matrix of the evidence study to
// data/tasks/evidence-controlled.jsonl. Deterministic: the same seed writes the same bytes,
// and an existing file that differs is refused unless --force (it may already be frozen).
//   fixtures/evidence/tasks.ts (families, seeded order) ─▶ data/tasks/evidence-controlled.jsonl
import fs from 'node:fs';
import { main } from '../core/cli.ts';
import { rel } from '../core/paths.ts';
import { toLine } from '../core/jsonl.ts';
import { validate } from '../core/validate.ts';
import { log } from '../core/log.ts';
import { messages } from '../core/messages.ts';
import { RStackError } from '../core/errors.ts';
import { controlledMatrix, generateTasks } from '../fixtures/evidence/tasks.ts';
import { writeFileAtomic } from './kernel/files.ts';
import { evidenceTasksPath } from './evidence/tasks-file.ts';

const evidenceTasksFile = evidenceTasksPath;

export function renderTasks(): string {
  const tasks = generateTasks(controlledMatrix);
  return tasks.map((t, i) => toLine(validate('evidence-task', t, { file: 'generated task', line: i + 1 }))).join('');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main({
    name: 'tasks-evidence',
    summary: 'write the evidence study\'s 320 controlled conditions to data/tasks/evidence-controlled.jsonl',
    options: {
      check: { type: 'boolean', default: false, help: 'only check that the file on disk is what the generator writes (exit 1 if not)' },
      force: { type: 'boolean', default: false, help: 'overwrite a file that differs (refreeze afterwards)' },
    },
    async run(values) {
      const file = evidenceTasksFile();
      const text = renderTasks();
      const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      if (values.check) {
        if (existing !== text) throw new RStackError(messages.evidenceTasksDiffer(rel(file)));
        log({ kind: 'info', message: messages.evidenceTasksUnchanged(rel(file)) });
        return;
      }
      if (existing === text) return log({ kind: 'info', message: messages.evidenceTasksUnchanged(rel(file)) });
      if (existing !== null && !values.force) throw new RStackError(messages.evidenceTasksDiffer(rel(file)), { exitCode: 2 });
      writeFileAtomic(file, text);
      log({ kind: 'info', message: messages.evidenceTasksWritten(rel(file), text.split('\n').length - 1) });
    },
  });
}
