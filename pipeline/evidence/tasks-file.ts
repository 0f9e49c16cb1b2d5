import path from 'node:path';
import { paths } from '../../core/paths.ts';

/** The evidence study's controlled matrix, shared by both arms. */
export const evidenceTasksPath = () => path.join(paths.tasks(), 'evidence-controlled.jsonl');
