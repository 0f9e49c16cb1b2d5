// A Python venv of the project's (the example agents', the BrowserGym suite's): made with python3 -m
// venv, its requirements installed from PyPI, made again only when what it was made from changed
// (a stamp inside it holds the sha256 of those files). Never a browser download: the requirements
// name Python packages only, and Playwright for Python drives Debian's Chromium.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { $ } from 'zx';
import { codeRoot } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { commandFailed } from '../../core/command.ts';
import { installDebianPackages } from '../../fixtures/wordpress/install.ts';

/** Runs a zx command line, turning a failure into a CommandError that names it. */
export async function sh(what: string, command: () => Promise<unknown>): Promise<void> {
  try { await command(); } catch (error) { throw commandFailed(error, what); }
}

/** Debian's python3 makes no venv without python3-venv (apt holds one lock at a time: call this before anything installs at once). */
export async function ensureVenvSupport(label = 'setup'): Promise<void> {
  if ((await $({ quiet: true, nothrow: true })`python3 -c 'import ensurepip'`).exitCode !== 0) await installDebianPackages(['python3-venv'], label);
}

export interface VenvSpec {
  /** the venv's folder */
  venv: string;
  /** requirements files, installed in this order */
  requirements: string[];
  /** pip install --no-deps: the requirements are a complete pinned closure, installed exactly as listed */
  noDeps?: boolean;
  /** project folders installed editable after the requirements (pip install --no-deps -e DIR) */
  editable?: string[];
  /** more files whose change makes the venv again (an editable package's pyproject.toml) */
  alsoHashes?: string[];
}

const stampOf = (spec: VenvSpec) => {
  // one requirements file and nothing else (the example agents' venvs): the hash of its bytes, as their stamps have always been
  if (spec.requirements.length === 1 && !spec.noDeps && !spec.editable?.length && !spec.alsoHashes?.length) {
    return crypto.createHash('sha256').update(fs.readFileSync(spec.requirements[0]!)).digest('hex');
  }
  const hash = crypto.createHash('sha256');
  for (const f of [...spec.requirements, ...(spec.alsoHashes ?? [])]) hash.update(`${path.relative(codeRoot, f)}\0`).update(fs.readFileSync(f));
  hash.update(`noDeps=${spec.noDeps ?? false};editable=${(spec.editable ?? []).map((d) => path.relative(codeRoot, d)).join(',')}`);
  return hash.digest('hex');
};

/** Whether the venv is there and made from these files. */
export function venvCurrent(spec: VenvSpec): boolean {
  const stamp = path.join(spec.venv, '.requirements.sha256');
  return fs.existsSync(path.join(spec.venv, 'bin', 'python')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === stampOf(spec);
}

/** Makes the venv unless it is current; returns whether it made it. */
export async function ensureVenv(spec: VenvSpec, label = 'setup'): Promise<boolean> {
  if (venvCurrent(spec)) return false;
  const q = $({ quiet: true });
  const pip = path.join(spec.venv, 'bin', 'pip');
  const rel = (p: string) => path.relative(codeRoot, p);
  log({ kind: 'info', message: `${label}: a venv ${rel(spec.venv)} with ${spec.requirements.map(rel).join(', ')}${spec.noDeps ? ' (--no-deps: exactly the pins)' : ''}` });
  // a venv made from other files is made anew: no package of the old set stays behind
  fs.rmSync(spec.venv, { recursive: true, force: true });
  await sh(`python3 -m venv ${spec.venv}`, () => q`python3 -m venv ${spec.venv}`);
  const noDeps = spec.noDeps ? ['--no-deps'] : [];
  const reqs = spec.requirements.flatMap((r) => ['-r', r]);
  await sh(`${pip} install ${noDeps.join(' ')} ${reqs.join(' ')}`, () => q`${pip} install -q --disable-pip-version-check ${noDeps} ${reqs}`);
  for (const dir of spec.editable ?? []) await sh(`${pip} install --no-deps -e ${dir}`, () => q`${pip} install -q --disable-pip-version-check --no-deps -e ${dir}`);
  fs.writeFileSync(path.join(spec.venv, '.requirements.sha256'), `${stampOf(spec)}\n`);
  return true;
}
