// rstackbench with-sites [--examples] [--sites wordpress,wordpress-editor,layers-wordpress,mediawiki] [--beside CHECK] -- COMMAND…
// The set-up that make test, make reproduce's Arm B step, a rerun's Arm B and .ci/run share:
//
//   --examples ─▶ the example agents' own dependencies (examples/agents/puppeteer: npm ci;
//                 examples/agents/python and examples/agents/browser-use: a venv each with its
//                 requirements.txt), the BrowserGym suite's venv (browsergym/.venv: its pinned
//                 requirements and the suite itself, pipeline/browsergym/install.ts) and the smallest
//                 local model (.state/models/), each only when missing or stale; all at once, and
//                 while the sites install and start
//   --slurm    ─▶ Debian's slurm-wlm and munge if missing, first (apt takes one install at a time): the
//                 Slurm test's one-node cluster (pipeline/slurm/cluster.ts)
//   --sites    ─▶ Debian's WordPress (and, for mediawiki, MediaWiki) packages if missing
//                 (fixtures/wordpress/install.ts), then each site started unless it runs already
//                 (fixtures/sites.ts)
//   --beside   ─▶ a check run while the rest installs and starts (make test: the type check, which
//                 needs the CPU while the set-up waits on the network); COMMAND runs only after it
//                 passed, and its failure is our exit code
//   COMMAND    ─▶ run with the sites' origins in its environment; its exit code becomes ours
//   always     ─▶ the sites started here stopped again (also on a failure, Ctrl-C or SIGTERM);
//                 a site you had started stays up
import fs from 'node:fs';
import path from 'node:path';
import { $ } from 'zx';
import { execa } from 'execa';
import { main, splitAtDash } from '../../core/cli.ts';
import { codeRoot } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { UsageError } from '../../core/errors.ts';
import { commandFailed, runInherited } from '../../core/command.ts';
import { ensureVenv, ensureVenvSupport, sh } from './venv.ts';
import { ensureSuiteVenv } from '../browsergym/install.ts';
import { ensureEvaluatorsVenv } from '../evaluators/install.ts';
import { parseSiteNames, withSites } from '../../fixtures/sites.ts';
import { ensureModel, requireModel } from '../models/install.ts';
import { DEFAULT_MODEL } from '../models/catalog.ts';
import { installSlurm } from '../slurm/cluster.ts';

const puppeteer = path.join(codeRoot, 'examples', 'agents', 'puppeteer');
/** the Python examples, each a venv of its own: Playwright for Python; browser-use (PyPI) */
const pythonAgents = ['python', 'browser-use'].map((name) => path.join(codeRoot, 'examples', 'agents', name));

const newer = (a: string, b: string) => fs.existsSync(b) && fs.statSync(a).mtimeMs > fs.statSync(b).mtimeMs;

/** An example's venv: dir/.venv with dir/requirements.txt. */
const exampleVenv = (dir: string) => ensureVenv({ venv: path.join(dir, '.venv'), requirements: [path.join(dir, 'requirements.txt')] }, 'with-sites');

/**
 * The example outside agents' dependencies: puppeteer-core from npm; Playwright for Python,
 * browser-use, the BrowserGym suite and other benchmarks' evaluators (evaluators/.venv) from PyPI
 * (no browser download). They download at once: each is its own folder, and all of them wait mostly
 * on the network.
 */
export async function installExampleAgents(): Promise<void> {
  await ensureVenvSupport('with-sites');
  const q = $({ quiet: true });
  const stamp = path.join(puppeteer, 'node_modules', '.package-lock.json');
  const npm = async () => {
    if (fs.existsSync(stamp) && !newer(path.join(puppeteer, 'package-lock.json'), stamp)) return;
    log({ kind: 'info', message: 'with-sites: npm ci in examples/agents/puppeteer' });
    await sh(`npm ci --prefix ${puppeteer}`, () => q`npm ci --prefix ${puppeteer} --no-audit --no-fund --loglevel=error`);
  };
  // the smallest local model, which the browser-use example and the real-model tests ask (cached in .state/models/)
  const model = async () => { await ensureModel(requireModel(DEFAULT_MODEL)); };
  await settleAll([npm(), ...pythonAgents.map((dir) => exampleVenv(dir)), ensureSuiteVenv('with-sites'), ensureEvaluatorsVenv('with-sites'), model()]);
}

/** Waits for every promise, then throws the first failure: nothing is left running behind an error. */
async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The --beside check, run through the shell with its output shown: its exit code (a signal counts as 1). */
async function runBeside(check: string): Promise<number> {
  const result = await execa(check, { shell: true, stdio: 'inherit', reject: false, cwd: process.cwd() });
  if (result.failed && result.exitCode === undefined && !result.signal) throw commandFailed(result, check);
  return result.exitCode ?? 1;
}

const { own, command } = splitAtDash();

await main({
  name: 'rstackbench with-sites',
  summary: 'install what the tests need and start the real apps (Arm B\'s WordPress sites, the layers arm\'s WordPress and MediaWiki), run a command while they are up, then stop what was started here (a site you had started stays up)',
  usage: 'rstackbench with-sites [--examples] [--slurm] [--sites wordpress,wordpress-editor,layers-wordpress,mediawiki] [--beside CHECK] -- COMMAND [ARGS…]',
  options: {
    examples: { type: 'boolean', default: false, help: 'first install the example agents\' dependencies (examples/agents/puppeteer, examples/agents/python, examples/agents/browser-use) and the smallest local model (.state/models/)' },
    slurm: { type: 'boolean', default: false, help: 'first install Debian\'s slurm-wlm and munge (the Slurm test starts a one-node cluster of its own)' },
    sites: { type: 'string', default: '', help: 'the sites to have up, comma-separated: wordpress (127.0.0.1:8471), wordpress-editor (127.0.0.1:8472) for Arm B; layers-wordpress (127.0.0.1:8650), mediawiki (127.0.0.1:8660) for the layers arm on real apps' },
    beside: { type: 'string', default: '', help: 'a check (a shell command line) run while the rest installs and the sites start; COMMAND runs only if it exits 0, otherwise its exit code is ours (make test: the type check)' },
  },
  async run(values, positionals) {
    if (positionals.length) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}: the command comes after --`);
    if (command.length === 0) throw new UsageError('no command: rstackbench with-sites [--sites …] -- COMMAND [ARGS…]');
    const names = parseSiteNames(values.sites ?? '');
    if (values.slurm) await installSlurm('with-sites');
    // the example agents install while the sites install and start (apt only before: python3-venv);
    // the command starts when both are done, and a failed install stops the sites started here
    if (values.examples && names.length) await ensureVenvSupport('with-sites');
    const examples = values.examples ? installExampleAgents() : Promise.resolve();
    const beside = values.beside ? runBeside(values.beside) : Promise.resolve(0);
    // an interruption while the sites start: the start stops what it had started, then we end
    const abort = new AbortController();
    const interrupt = () => abort.abort();
    for (const s of signals) process.once(s, interrupt);
    const sites = withSites(names, async (env) => {
      await examples;
      const checked = await beside;
      for (const s of signals) process.off(s, interrupt);
      if (checked !== 0) {
        log({ kind: 'error', message: `with-sites: ${values.beside} exited ${checked}; ${command.join(' ')} is not run` });
        return checked;
      }
      return runInherited(command, env);
    }, { signal: abort.signal }).finally(() => { for (const s of signals) process.off(s, interrupt); });
    // a failed install is reported as itself, after the sites it waited beside are stopped
    await settleAll([examples, beside, sites]);
    return sites;
  },
}, own);
