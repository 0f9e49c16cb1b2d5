// A production manifest (schemas/production-manifest.schema.json) and the labels made from it.
//
//   data/tasks/arm-b/manifest.json      the default sample: the local WordPress (make production-site)
//   data/labels/arm-b/labels.json       its truth labels (pipeline/evidence/arm-b/label-arm-b.ts)
//   data/tasks/arm-b/<name>.json        another sample (ARM_B_MANIFEST) → data/labels/arm-b/<name>.labels.json
//
// Both live under the frozen roots: the gate refuses a run when either changed after the freeze.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../../core/paths.ts';
import { readJsonFile } from '../../../core/validate.ts';
import { ValidationError, UsageError } from '../../../core/errors.ts';
import { messages } from '../../../core/messages.ts';
import { apiUrls } from './predicate.ts';

import type { ProductionCase, ProductionLabels, ProductionManifest } from '../../../core/contracts.ts';

export type { CaseLabel, ProductionCase, ProductionLabels, ProductionManifest } from '../../../core/contracts.ts';

export const defaultManifestPath = () => path.join(paths.tasks(), 'arm-b', 'manifest.json');

/** The manifest named by ARM_B_MANIFEST (or --manifest), else the default one. */
export function manifestPath(given?: string): string {
  const p = given ?? process.env.ARM_B_MANIFEST;
  return p ? path.resolve(p) : defaultManifestPath();
}

/** manifest.json → labels.json; <name>.json → <name>.labels.json, under data/labels/arm-b/. */
export function labelsPathFor(manifestFile: string): string {
  const base = path.basename(manifestFile, '.json');
  return path.join(paths.labels(), 'arm-b', base === 'manifest' ? 'labels.json' : `${base}.labels.json`);
}

/** The origin (scheme://host:port) of a URL, or null when it does not parse. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function readManifest(file: string): ProductionManifest {
  if (!fs.existsSync(file)) throw new UsageError(messages.armB.noManifest(rel(file)));
  const m = readJsonFile<ProductionManifest>(file, 'production-manifest');
  const origin = originOf(m.origin);
  if (origin !== m.origin) throw new ValidationError(rel(file), null, 'origin', `must be a bare origin such as http://127.0.0.1:8471, not ${JSON.stringify(m.origin)}`);
  const seen = new Set<string>();
  m.cases.forEach((c, i) => {
    if (seen.has(c.id)) throw new ValidationError(rel(file), null, `cases.${i}.id`, `${c.id} is used twice`);
    seen.add(c.id);
    if (originOf(c.url) !== m.origin) throw new ValidationError(rel(file), null, `cases.${i}.url`, `${c.url} is not on the manifest's origin ${m.origin}`);
    for (const u of apiUrls(c.predicate)) {
      if (originOf(u) !== m.origin) throw new ValidationError(rel(file), null, `cases.${i}.predicate`, `the api URL ${u} is not on the manifest's origin ${m.origin}`);
    }
  });
  return m;
}

/**
 * The one rule both instruments enforce before anything is sent: GET, and only to the manifest's
 * origin. Returns why a request is refused, or null when it may go.
 */
export function refusal(method: string, url: string, origin: string): 'method' | 'host' | null {
  if (method.toUpperCase() !== 'GET') return 'method';
  return originOf(url) === origin ? null : 'host';
}

export const readLabels = (file: string): ProductionLabels => readJsonFile<ProductionLabels>(file, 'production-labels');

/** The condition id of one trial: <manifest id>/<case id>/<rep>. */
export const conditionId = (m: ProductionManifest, caseId: string, rep: number) => `${m.id}/${caseId}/${rep}`;
