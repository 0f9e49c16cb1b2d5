// make label-arm-b: the truth labels of a production sample, by direct HTTP (no browser).
//
//   data/tasks/arm-b/manifest.json ──GET each case, apply its predicate──▶ data/labels/arm-b/labels.json
//
// Reads: the manifest (ARM_B_MANIFEST or --manifest), the live site. Writes: the labels file, unless
// the labels on disk already say the same for the same manifest (then nothing changes, so a frozen
// file stays frozen). --check compares without writing. Labels must be frozen (make freeze)
// before the first browser run; the runner refuses otherwise.
import fs from 'node:fs';
import { main } from '../../../core/cli.ts';
import { CheckError, RStackError } from '../../../core/errors.ts';
import { messages } from '../../../core/messages.ts';
import { rel } from '../../../core/paths.ts';
import { sha256File } from '../../../core/hash.ts';
import { validate } from '../../../core/validate.ts';
import { log } from '../../../core/log.ts';
import { writeFileAtomic } from '../../kernel/files.ts';
import { labelManifest } from './labeler.ts';
import { labelsPathFor, manifestPath, readLabels, readManifest, type CaseLabel, type ProductionLabels } from './manifest.ts';
import { isMain } from '../../../core/entry.ts';

/** What a label asserts, without when it was made: two labelings agree when these agree. */
const substance = (labels: CaseLabel[]) =>
  JSON.stringify(labels.map(({ case_id, truth, status, final_url, redirects, clauses }) => ({ case_id, truth, status, final_url, redirects, clauses })));

export async function labelArmB(options: { manifest?: string; check?: boolean } = {}): Promise<{ file: string; changed: boolean; labels: ProductionLabels }> {
  const manifestFile = manifestPath(options.manifest);
  const manifest = readManifest(manifestFile);
  const file = labelsPathFor(manifestFile);
  const manifestSha = await sha256File(manifestFile);
  const { labels, mismatches } = await labelManifest(manifest, (l) =>
    log({ kind: 'info', message: `  ${l.case_id.padEnd(22)} ${String(l.status)} ${l.truth}` }),
  );
  if (mismatches.length) throw new RStackError(messages.armB.kindMismatch(mismatches), { exitCode: 1 });
  const result: ProductionLabels = validate('production-labels', {
    schema: 'production-labels/1',
    manifest: rel(manifestFile),
    manifest_sha256: manifestSha,
    manifest_id: manifest.id,
    origin: manifest.origin,
    labeled_at: new Date().toISOString(),
    labeler: { method: 'direct-http', client: `node fetch (undici ${process.versions.undici ?? '?'})`, node: process.version },
    cases: labels,
  }, { file: rel(file) });
  const existing = fs.existsSync(file) ? readLabels(file) : undefined;
  const same = existing !== undefined && existing.manifest_sha256 === manifestSha && substance(existing.cases) === substance(labels);
  if (options.check) {
    if (!existing) throw new CheckError(messages.armB.labelsMissing(rel(file)));
    if (!same) throw new CheckError(`${rel(file)}: the site no longer gives the frozen labels (or the manifest changed)`);
    return { file, changed: false, labels: existing };
  }
  if (same) return { file, changed: false, labels: existing! };
  writeFileAtomic(file, JSON.stringify(result, null, 2) + '\n');
  return { file, changed: true, labels: result };
}

if (isMain(import.meta.url)) {
  await main({
    name: 'make label-arm-b',
    summary: 'label a production sample by direct HTTP (no browser): apply each case predicate to status and body',
    usage: 'make label-arm-b [ARM_B_MANIFEST=data/tasks/arm-b/<name>.json]   (or: node --import tsx pipeline/evidence/arm-b/label-arm-b.ts [--check])',
    options: {
      manifest: { type: 'string', help: 'the production manifest (default: ARM_B_MANIFEST, else data/tasks/arm-b/manifest.json)' },
      check: { type: 'boolean', default: false, help: 'relabel and compare with the labels on disk; write nothing; exit 1 when they differ' },
    },
    async run(values) {
      const { file, changed, labels } = await labelArmB({ manifest: values.manifest, check: values.check });
      const success = labels.cases.filter((c) => c.truth === 'success').length;
      if (values.check) process.stdout.write(`${rel(file)}: the site still gives the frozen labels (${labels.cases.length} cases)\n`);
      else if (!changed) process.stdout.write(`${rel(file)}: unchanged (the site gives the same labels for the same manifest)\n`);
      else process.stdout.write(messages.armB.labelsWritten(rel(file), success, labels.cases.length - success) + '\n');
    },
  });
}
