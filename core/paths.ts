// Every path the project reads or writes, in one place (showyourwork's lesson).
// The root is the repository, unless RSTACK_ROOT points elsewhere: the tests
// build a throw-away tree there and run the real pipeline against it.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Where the code lives (never overridden: schemas and fixtures ship with the code). */
export const codeRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the data lives: the repository, or RSTACK_ROOT for a test tree. */
export function root(): string {
  return process.env.RSTACK_ROOT ? path.resolve(process.env.RSTACK_ROOT) : codeRoot;
}

export const paths = {
  root,
  prereg: () => path.join(root(), 'prereg'),
  manifests: () => path.join(root(), 'manifests'),
  ledger: () => path.join(root(), 'manifests', 'ledger.jsonl'),
  dataManifest: () => path.join(root(), 'manifests', 'data.sha256'),
  tablesManifest: () => path.join(root(), 'manifests', 'tables.sha256'),
  figuresManifest: () => path.join(root(), 'manifests', 'figures.sha256'),
  data: () => path.join(root(), 'data'),
  tasks: () => path.join(root(), 'data', 'tasks'),
  labels: () => path.join(root(), 'data', 'labels'),
  plans: () => path.join(root(), 'data', 'plans'),
  raw: () => path.join(root(), 'data', 'raw'),
  rawArm: (study: string, arm: string) => path.join(root(), 'data', 'raw', study, arm),
  excluded: () => path.join(root(), 'data', 'excluded'),
  excludedArm: (study: string, arm: string) => path.join(root(), 'data', 'excluded', study, arm),
  exclusionLog: () => path.join(root(), 'data', 'excluded', 'REASONS.jsonl'),
  runLog: () => path.join(root(), 'data', 'runs.jsonl'),
  analysisOut: () => path.join(root(), 'analysis', 'out'),
  figuresOut: () => path.join(root(), 'figures', 'out'),
  paperBuild: () => path.join(root(), 'paper', 'build'),
  // shipped with the code
  schemas: () => path.join(codeRoot, 'schemas'),
  queries: () => path.join(codeRoot, 'analysis', 'queries'),
  fixtures: () => path.join(codeRoot, 'fixtures'),
};

/** The inputs a freeze covers: preregistrations, task definitions, truth labels and the pilot's plans. */
export const frozenRoots = () => [
  { dir: paths.prereg(), pattern: /^[^/]+\.md$/ }, // prereg/*.md (drafts in subfolders are not frozen)
  { dir: paths.tasks(), pattern: /.*/ },
  { dir: paths.labels(), pattern: /.*/ },
  { dir: paths.plans(), pattern: /\.jsonl$/ }, // the planning pilot's plans, frozen before any is executed
];

/** A path as the ledger and manifests spell it: relative to the root, with forward slashes. */
export function rel(p: string): string {
  return path.relative(root(), p).split(path.sep).join('/');
}
