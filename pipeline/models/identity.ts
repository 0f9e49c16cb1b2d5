// A served model's identity: what a plan was made with, frozen before its first plan.
//
//   catalog entry + the checked GGUF + node-llama-cpp's version ─▶ identity (schemas/model-identity.schema.json)
//   ─▶ data/models/<name>.json (written once by make model-server; make freeze hashes it into the ledger)
//   ─▶ GET /v1/models reports it ─▶ pilot-plans compares the two and copies it into every plan line
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { RStackError } from '../../core/errors.ts';
import { paths, rel } from '../../core/paths.ts';
import { validate } from '../../core/validate.ts';
import { THREADS, type ModelEntry } from './catalog.ts';

import type { ModelIdentity } from '../../core/contracts.ts';

export type { ModelIdentity } from '../../core/contracts.ts';

/** node-llama-cpp's version as installed (package.json pins it exactly). */
export function runtimeVersion(): string {
  // the package exports no ./package.json: find it above its entry point
  let dir = path.dirname(createRequire(import.meta.url).resolve('node-llama-cpp'));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The identity of `m` served with these settings (by default the catalogue's: what make model-server serves). */
export function identityOf(m: ModelEntry, settings: { maxTokens?: number; threads?: number } = {}): ModelIdentity {
  return {
    schema: 'model-identity/1',
    name: m.name,
    title: m.title,
    packages: m.packages.map((p) => ({ name: p.name, version: p.version, wheel_sha256: p.sha256 })),
    gguf: { file: m.gguf.file, sha256: m.gguf.sha256, bytes: m.gguf.bytes },
    quantization: m.quantization,
    context_size: m.contextSize,
    max_tokens: settings.maxTokens ?? m.maxTokens,
    threads: settings.threads ?? THREADS,
    seed: m.seed,
    temperature: 0,
    runtime: { name: 'node-llama-cpp', version: runtimeVersion() },
    server: 'pipeline/models/serve.ts',
  };
}

export const identityFile = (name: string) => path.join(paths.modelIdentities(), `${name}.json`);

/** Canonical text of an identity: what is written, and what two identities are compared by. */
export const identityText = (identity: ModelIdentity) => JSON.stringify(identity, null, 2) + '\n';

export function readIdentity(file: string): ModelIdentity {
  return validate('model-identity', JSON.parse(fs.readFileSync(file, 'utf8')), { file: rel(file) }) as ModelIdentity;
}

/**
 * Writes data/models/<name>.json when it is missing; an existing file must say the same, else the
 * served model is not the one recorded (a new runtime version, a new GGUF): refused, exit 2.
 */
export function recordIdentity(identity: ModelIdentity): { file: string; written: boolean } {
  const file = identityFile(identity.name);
  if (fs.existsSync(file)) {
    const recorded = identityText(readIdentity(file));
    if (recorded !== identityText(identity)) {
      throw new RStackError(
        `${rel(file)} records another identity than the model about to be served:\nrecorded: ${recorded.replace(/\s+/g, ' ')}\nserved:   ${identityText(identity).replace(/\s+/g, ' ')}\n` +
          'A recorded identity is never edited: serve the model it records, or add the new one under a new name in pipeline/models/catalog.ts',
        { exitCode: 2 },
      );
    }
    return { file, written: false };
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, identityText(identity));
  return { file, written: true };
}

/**
 * The identity the endpoint reports for `model` in GET {base}/models (this project's server does;
 * others report none): null when it reports none or the call fails (the plans then carry null).
 */
export async function servedIdentity(baseUrl: string, model: string, apiKey?: string, timeoutMs = 10_000): Promise<ModelIdentity | null> {
  let body: { data?: { id?: unknown; identity?: unknown }[] };
  try {
    const res = await fetch(`${baseUrl}/models`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    body = await res.json();
  } catch {
    return null;
  }
  const found = Array.isArray(body?.data) ? body.data.find((m) => m?.id === model) : undefined;
  if (!found?.identity) return null;
  return validate('model-identity', found.identity, { file: `${baseUrl}/models` }) as ModelIdentity;
}
