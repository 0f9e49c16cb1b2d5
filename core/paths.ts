// Every path the project reads or writes, in one place (showyourwork's lesson).
// The root is the repository, unless RSTACK_ROOT points elsewhere: the tests
// build a throw-away tree there and run the real pipeline against it.
// RSTACK_SCRATCH re-roots only what a run writes (its rows, exclusions, the run log and the data
// manifest) into a scratch folder: `make reproduce REDO=1` reruns every arm there, gated on the
// frozen inputs and the ledger of the root, and leaves the root's record untouched.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Where the code lives (never overridden: schemas and fixtures ship with the code). */
export const codeRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the data lives: the repository, or RSTACK_ROOT for a test tree. */
export function root(): string {
  return process.env.RSTACK_ROOT ? path.resolve(process.env.RSTACK_ROOT) : codeRoot;
}

/** Where runs write: RSTACK_SCRATCH for a scratch rerun, else the data root. */
export function outputRoot(): string {
  return process.env.RSTACK_SCRATCH ? path.resolve(process.env.RSTACK_SCRATCH) : root();
}

/** What a run writes, under a root (the data root, or a scratch folder laid out the same way). */
export const runOutputs = (base: string) => ({
  raw: () => path.join(base, 'data', 'raw'),
  rawArm: (study: string, arm: string) => path.join(base, 'data', 'raw', study, arm),
  /** other benchmarks' evaluators' verdicts on registered traces, one file per run file scored (schemas/evaluator-verdict.schema.json): not trace rows */
  evaluatorVerdicts: (evaluator: string) => path.join(base, 'data', 'raw', 'evaluators', evaluator),
  excluded: () => path.join(base, 'data', 'excluded'),
  excludedArm: (study: string, arm: string) => path.join(base, 'data', 'excluded', study, arm),
  exclusionLog: () => path.join(base, 'data', 'excluded', 'REASONS.jsonl'),
  runLog: () => path.join(base, 'data', 'runs.jsonl'),
  dataManifest: () => path.join(base, 'manifests', 'data.sha256'),
  /** one lock file per run slot (pipeline/kernel/run-lock.ts); git-ignored, outside data/ and manifests/ */
  runLocks: () => path.join(base, '.state', 'run-locks'),
});

const out = () => runOutputs(outputRoot());

/** A file of data/raw/evaluators/ (other benchmarks' verdicts on registered traces), which readers of trace run files pass over. */
export const isEvaluatorVerdicts = (file: string): boolean => /[/\\]data[/\\]raw[/\\]evaluators[/\\]/.test(file);

export const paths = {
  root,
  prereg: () => path.join(root(), 'prereg'),
  manifests: () => path.join(root(), 'manifests'),
  ledger: () => path.join(root(), 'manifests', 'ledger.jsonl'),
  dataManifest: () => out().dataManifest(),
  tablesManifest: () => path.join(root(), 'manifests', 'tables.sha256'),
  figuresManifest: () => path.join(root(), 'manifests', 'figures.sha256'),
  data: () => path.join(root(), 'data'),
  tasks: () => path.join(root(), 'data', 'tasks'),
  labels: () => path.join(root(), 'data', 'labels'),
  plans: () => path.join(root(), 'data', 'plans'),
  /** the served models' identities (data/models/<name>.json), frozen before their first plan */
  modelIdentities: () => path.join(root(), 'data', 'models'),
  /** where make model-server keeps its pid file and log (git-ignored) */
  modelServerState: () => path.join(root(), '.state', 'model-server'),
  /** where make fault-proxy keeps its pid file, logs, events and the run's CA (git-ignored; 0700) */
  faultProxyState: () => (process.env.FAULT_PROXY_STATE ? path.resolve(process.env.FAULT_PROXY_STATE) : path.join(root(), '.state', 'fault-proxy')),
  /** where a user's unregistered run of an agent or app writes, one folder per run (git-ignored; pipeline/kernel/user-run.ts) */
  userRuns: () => path.join(root(), 'runs'),
  raw: () => out().raw(),
  rawArm: (study: string, arm: string) => out().rawArm(study, arm),
  evaluatorVerdicts: (evaluator: string) => out().evaluatorVerdicts(evaluator),
  excluded: () => out().excluded(),
  excludedArm: (study: string, arm: string) => out().excludedArm(study, arm),
  exclusionLog: () => out().exclusionLog(),
  runLog: () => out().runLog(),
  runLocks: () => out().runLocks(),
  analysisOut: () => path.join(root(), 'analysis', 'out'),
  figuresOut: () => path.join(root(), 'figures', 'out'),
  paperBuild: () => path.join(root(), 'paper', 'build'),
  // shipped with the code
  schemas: () => path.join(codeRoot, 'schemas'),
  queries: () => path.join(codeRoot, 'analysis', 'queries'),
  fixtures: () => path.join(codeRoot, 'fixtures'),
  /** installed model packages and their GGUF files, shared by every data root (git-ignored cache) */
  modelCache: () => (process.env.RSTACK_MODEL_CACHE ? path.resolve(process.env.RSTACK_MODEL_CACHE) : path.join(codeRoot, '.state', 'models')),
};

/** The inputs a freeze covers: preregistrations, task definitions, truth labels, the pilot's plans and the served models' identities. */
export const frozenRoots = () => [
  { dir: paths.prereg(), pattern: /^[^/]+\.md$/ }, // prereg/*.md (drafts in subfolders are not frozen)
  { dir: paths.tasks(), pattern: /.*/ },
  { dir: paths.labels(), pattern: /.*/ },
  { dir: paths.plans(), pattern: /\.jsonl$/ }, // the planning pilot's plans, frozen before any is executed
  { dir: paths.modelIdentities(), pattern: /^[^/]+\.json$/ }, // a served model's identity, frozen before its first plan
];

/** A path as the ledger and manifests spell it: relative to the root (a run's outputs in a scratch
 *  folder: relative to that folder, so its manifest and run log read as the root's do), with forward slashes. */
export function rel(p: string): string {
  const scratch = outputRoot();
  const within = path.relative(scratch, path.resolve(p));
  const inScratch = scratch !== root() && within !== '..' && !within.startsWith(`..${path.sep}`) && !path.isAbsolute(within);
  return path.relative(inScratch ? scratch : root(), p).split(path.sep).join('/');
}

/** A path as a message shows it: relative to the root when it lies inside it, else absolute. */
export function shownPath(p: string): string {
  const within = path.relative(root(), path.resolve(p));
  return within === '' || within.startsWith('..') || path.isAbsolute(within) ? path.resolve(p) : within.split(path.sep).join('/');
}
