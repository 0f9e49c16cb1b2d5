// bin/rstackbench: one entry point for every step, with the exit codes docs/cli.md documents.
// The Makefile's targets call it too; make itself can only exit 0 or 2, so users and CI who
// need the code (1 a check failed, 2 bad input, 3 the gate refused) call this directly.
//
//   rstackbench <verb> [args…]
//     ─▶ pipeline/verbs.json: verb → the one script that implements it (data, not branches)
//     ─▶ a Make recipe's --rstack-args-from-env: the user's ARGS in its place, split as a shell would
//     ─▶ node --import tsx <script> [verb args…] [args…]   (or bash <script> …)
//         stdio inherited; its exit code, or the signal that ended it, becomes ours
//     ─▶ when the step changed what the tables are made from (data/raw, data/excluded, the run log,
//        the ledger, prereg/): say the next command, since the committed tables are now out of date
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot, paths, root, runOutputs } from '../../core/paths.ts';
import { messages } from '../../core/messages.ts';
import { log } from '../../core/log.ts';
import { validate } from '../../core/validate.ts';
import { shellWords } from '../../core/shell-words.ts';

export interface Verb { script: string; args?: string[]; summary: string; wraps?: boolean }

export const verbsFile = path.join(codeRoot, 'pipeline', 'verbs.json');

/** The dispatch table, checked against schemas/verbs.schema.json. */
export function readVerbs(file = verbsFile): Record<string, Verb> {
  const table = validate<{ verbs: Record<string, Verb> }>('verbs', JSON.parse(fs.readFileSync(file, 'utf8')), { file: path.relative(codeRoot, file) });
  return table.verbs;
}

/** `rstackbench --help`: every verb with its one-line summary. */
export function verbList(verbs: Record<string, Verb>): string {
  const width = Math.max(...Object.keys(verbs).map((v) => v.length), 4);
  const lines = Object.entries(verbs).map(([name, v]) => `  ${name.padEnd(width)}  ${v.summary}`);
  lines.push(`  ${'help'.padEnd(width)}  this list`);
  return [
    'verbs:',
    ...lines,
    '',
    'exit codes: 0 ok, 1 a check failed, 2 bad input (a malformed file or flag), 3 the freeze gate refused.',
    'Through make every failure exits 2; make\'s "Error N" line carries the code above.',
  ].join('\n');
}

/** The process a verb runs: its script under node + tsx (.ts) or bash (.sh), with the verb's own arguments first. */
export function commandFor(verb: Verb, args: string[]): { command: string; argv: string[] } {
  const script = path.join(codeRoot, verb.script);
  const all = [...(verb.args ?? []), ...args];
  if (script.endsWith('.sh')) return { command: 'bash', argv: [script, ...all] };
  return { command: process.execPath, argv: ['--import', import.meta.resolve('tsx'), script, ...all] };
}

/**
 * What the tables are made from (analysis/reanalyze.ts and, for the deviations tables, the inputs
 * analysis/deviations.ts draws at its top): when a step changes any of them, the committed tables
 * and figures no longer match, and we say the next command. Always the root's record: a run into a
 * scratch folder (RSTACK_SCRATCH) changes nothing the tables are made from.
 */
export const tableInputs = (): { label: string; path: string }[] => [
  { label: 'data/raw', path: runOutputs(root()).raw() },
  { label: 'data/excluded', path: runOutputs(root()).excluded() },
  { label: 'data/runs.jsonl', path: runOutputs(root()).runLog() },
  { label: 'manifests/ledger.jsonl', path: paths.ledger() },
  { label: 'prereg', path: paths.prereg() },
];

/** What the inputs hold now, cheaply: each file's path, size and mtime (the records are append-only). */
export function recordFingerprint(inputs = tableInputs()): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (p: string, label: string) => {
    let st: fs.Stats;
    try { st = fs.statSync(p); } catch { return; }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) visit(path.join(p, name), label);
    } else if (st.isFile() && path.basename(p) !== '.gitkeep') {
      seen.set(`${label}\0${p}`, `${st.size}:${st.mtimeMs}`);
    }
  };
  for (const input of inputs) visit(input.path, input.label);
  return seen;
}

/** The inputs (by label) with a file added, removed or changed between two fingerprints, and how many files. */
export function recordChanges(before: Map<string, string>, after: Map<string, string>): { count: number; inputs: string[] } {
  const changed = [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k)
    .concat([...before.keys()].filter((k) => !after.has(k)));
  const inputs = [...new Set(changed.map((k) => k.slice(0, k.indexOf('\0'))))];
  return { count: changed.length, inputs };
}

const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** where a Make recipe puts $(PASS_ARGS): the user's ARGS go there, as the shell would split them */
export const ARGS_FROM_ENV = '--rstack-args-from-env';

/** A verb's arguments with make's ARGS (RSTACK_ARGS, never re-parsed by a recipe's shell) in the recipe's place for them. */
export function withMakeArgs(args: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (!args.includes(ARGS_FROM_ENV)) return args;
  const words = shellWords(env.RSTACK_ARGS ?? '');
  return args.flatMap((a) => (a === ARGS_FROM_ENV ? words : [a]));
}

/** Runs one verb as a child and ends this process the way the child ended. */
export async function dispatch(argv: string[], table = verbsFile): Promise<void> {
  const verbs = readVerbs(table);
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(messages.cli.noVerb(verbList(verbs)) + '\n');
    process.exitCode = 2;
    return;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(`rstackbench: every step of RStackBench, one verb each (the Make targets call the same verbs)\n\nusage: rstackbench <verb> [options]   (rstackbench <verb> --help for a verb's options)\n\n${verbList(verbs)}\n`);
    return;
  }
  const verb = Object.hasOwn(verbs, name) ? verbs[name] : undefined;
  if (!verb) {
    log({ kind: 'error', message: messages.cli.unknownVerb(name, verbList(verbs)) });
    process.exitCode = 2;
    return;
  }
  if (!fs.existsSync(path.join(codeRoot, verb.script))) {
    log({ kind: 'error', message: messages.cli.noScript(name, verb.script) });
    process.exitCode = 2;
    return;
  }

  let verbArgs: string[];
  try {
    verbArgs = withMakeArgs(args);
  } catch (error) {
    log({ kind: 'error', message: `ARGS: ${(error as Error).message}` });
    process.exitCode = 2;
    return;
  }
  const before = recordFingerprint();
  const { command, argv: childArgv } = commandFor(verb, verbArgs);
  // the verb and its Make target (if the Makefile has one) reach the command's messages
  const makeTarget = new RegExp(`^${name}:`, 'm').test(fs.readFileSync(path.join(codeRoot, 'Makefile'), 'utf8')) ? name : '';
  // ARGS are this verb's: a command it runs (make reproduce's steps) gets its own from its own recipe
  const { RSTACK_ARGS: _args, ...env } = process.env;
  const child = spawn(command, childArgv, { stdio: 'inherit', env: { ...env, RSTACK_VERB: name, RSTACK_MAKE_TARGET: makeTarget } });
  // a terminal's Ctrl-C reaches the child through the process group already; a signal sent to
  // this process alone (kill PID, a CI runner's timeout) is passed on, and we wait for the child
  const pass = (signal: NodeJS.Signals) => { if (child.exitCode === null && child.signalCode === null) child.kill(signal); };
  for (const s of forwarded) process.on(s, pass);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  for (const s of forwarded) process.off(s, pass);

  const changed = recordChanges(before, recordFingerprint());
  // make reproduce runs the next steps itself (RSTACK_NEXT_STEPS_FOLLOW), and a verb that wraps a
  // command (with-sites -- make run-arm-b) leaves the note to the verbs inside it
  if (changed.count > 0 && !verb.wraps && !process.env.RSTACK_NEXT_STEPS_FOLLOW) log({ kind: 'info', message: messages.cli.recordChanged(changed.count, changed.inputs) });

  if (ended.signal) {
    process.kill(process.pid, ended.signal); // end as the child did, so a shell sees 128+n
    return;
  }
  process.exitCode = ended.code ?? 1;
}
