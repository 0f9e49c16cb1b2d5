// A throw-away data tree for one test: prereg/, data/tasks/ and manifests/ in a temp folder,
// with RSTACK_ROOT pointing at it, so the real pipeline code runs against it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './run.ts';
import { codeRoot } from '../../core/paths.ts';

export interface Tree { root: string; file(p: string): string; write(p: string, text: string): void; cleanup(): void }

export const samplePrereg = (id: string, arm = 'main') => `---
id: ${id}
study: layers
arm: ${arm}
version: 1
supersedes: null
---

# ${id}
A preregistration for a test.
`;

/** A temp tree with one prereg and, optionally, the real layers task file. */
export function makeTree(options: { tasks?: boolean } = {}): Tree {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-test-'));
  const tree: Tree = {
    root,
    file: (p) => path.join(root, p),
    write: (p, text) => {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
  tree.write('prereg/sample.md', samplePrereg('sample'));
  if (options.tasks) tree.write('data/tasks/layers.jsonl', fs.readFileSync(path.join(codeRoot, 'data/tasks/layers.jsonl'), 'utf8'));
  process.env.RSTACK_ROOT = root;
  return tree;
}

/** Runs a pipeline script as a user would, against the tree (env adds to the environment): its exit code and what it printed. */
export function runScript(tree: Tree, script: string, args: string[] = [], env: Record<string, string> = {}) {
  return run('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline', script), ...args], { cwd: codeRoot, env: { RSTACK_ROOT: tree.root, ...env } });
}
