// The smallest catalogued model for the tests that run a real one: installed into the shared cache
// (.state/models/, git-ignored) the first time, found there after; and the server, started as a user
// starts it in the foreground (pipeline/models/serve.ts) on a free port of 127.0.0.1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { DEFAULT_MODEL } from '../../pipeline/models/catalog.ts';
import { ensureModel, requireModel } from '../../pipeline/models/install.ts';
import { start, type Ended } from './run.ts';

export const testModel = () => requireModel(DEFAULT_MODEL);

/** Installs the smallest model (cached after the first time) and returns its checked GGUF. */
export const installTestModel = () => ensureModel(testModel());

export interface TestServer { base: string; port: number; stateFile: string; ended: Promise<Ended>; stop(): Promise<Ended> }

/** Starts serve.ts; resolves once it listens (the model may still be loading). */
export async function startModelServer(args: string[] = []): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-model-'));
  const stateFile = path.join(dir, 'server.json');
  const { child, ended } = start('node', ['--import', 'tsx', path.join(codeRoot, 'pipeline/models/serve.ts'), '--model', DEFAULT_MODEL, '--port', '0', '--state-file', stateFile, ...args], { cwd: codeRoot });
  let exited: Ended | undefined;
  void ended.then((e) => (exited = e));
  while (!fs.existsSync(stateFile)) {
    if (exited) throw new Error(`the model server exited before listening: ${exited.stderr}${exited.stdout}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const { port } = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { port: number };
  return {
    base: `http://127.0.0.1:${port}/v1`, port, stateFile, ended,
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      const e = await ended;
      fs.rmSync(dir, { recursive: true, force: true });
      return e;
    },
  };
}

/** Waits until GET /health says ready (the model loaded), or the server exited. */
export async function waitReady(server: TestServer): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/health`);
      if (res.status === 200) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
}
