// What must hold before an Arm B run sends its first request, after gate() passed:
//   1. the manifest and its labels are both in the ledger head (frozen);
//   2. the labels were made from this manifest (its sha256), and label exactly its cases;
//   3. the labels were first frozen before any telemetry of this sample existed;
//   4. runs under a superseded protocol are moved to data/excluded/ with the reason.
import fs from 'node:fs';
import { paths, rel } from '../../../core/paths.ts';
import { sha256File } from '../../../core/hash.ts';
import { GateError } from '../../../core/errors.ts';
import { messages } from '../../../core/messages.ts';
import { parseJsonl } from '../../../core/jsonl.ts';
import { log } from '../../../core/log.ts';
import { listFiles } from '../../kernel/files.ts';
import { readLedger, type LedgerEntry } from '../../kernel/ledger.ts';
import { excludeFile } from '../../kernel/exclude.ts';
import { labelsPathFor, readLabels, readManifest, type ProductionLabels, type ProductionManifest } from './manifest.ts';
import type { ProtocolChain } from './protocol.ts';

export interface Ready { manifest: ProductionManifest; manifestFile: string; labels: ProductionLabels; labelsFile: string }

interface FirstRow { file: string; started_at: string; condition_id: string; protocol?: string }

/** The first row of every arm-b run file, registered or excluded. */
function armBRuns(): FirstRow[] {
  const files = [...listFiles(paths.rawArm('evidence', 'arm-b')), ...listFiles(paths.excludedArm('evidence', 'arm-b'))].filter((f) => f.endsWith('.jsonl'));
  const out: FirstRow[] = [];
  for (const file of files) {
    const firstLine = fs.readFileSync(file, 'utf8').split('\n', 1)[0];
    if (!firstLine) continue;
    const [row] = parseJsonl<FirstRow>(firstLine, rel(file));
    if (row) out.push({ ...row, file });
  }
  return out;
}

/** `labelsBeforeTelemetry: false` skips the last check only: for a smoke run, which is never analysed (a look at the void first editor draw, whose labels came after its telemetry). */
export async function preflight(manifestFile: string, head: LedgerEntry, options: { labelsBeforeTelemetry?: boolean } = {}): Promise<Ready> {
  const manifest = readManifest(manifestFile);
  const manifestRel = rel(manifestFile);
  if (!(manifestRel in head.files)) throw new GateError(messages.armB.manifestUnfrozen(manifestRel));
  const labelsFile = labelsPathFor(manifestFile);
  const labelsRel = rel(labelsFile);
  if (!fs.existsSync(labelsFile)) throw new GateError(messages.armB.labelsMissing(labelsRel));
  if (!(labelsRel in head.files)) throw new GateError(messages.armB.labelsUnfrozen(labelsRel));
  const labels = readLabels(labelsFile);
  if (labels.manifest_sha256 !== (await sha256File(manifestFile))) throw new GateError(messages.armB.labelsStale(labelsRel, manifestRel));
  const want = manifest.cases.map((c) => c.id).join(',');
  const have = labels.cases.map((c) => c.case_id).join(',');
  if (want !== have) throw new GateError(messages.armB.labelsMismatchManifest(labelsRel, `manifest ${want}; labels ${have}`));
  for (const c of manifest.cases) {
    const l = labels.cases.find((x) => x.case_id === c.id)!;
    if (l.url !== c.url || l.kind !== c.kind) throw new GateError(messages.armB.labelsMismatchManifest(labelsRel, `${c.id} differs in url or kind`));
  }
  if (options.labelsBeforeTelemetry === false) return { manifest, manifestFile, labels, labelsFile };
  // when were these exact labels first frozen? telemetry of this sample must not be older
  const hash = head.files[labelsRel]!;
  const firstFrozen = readLedger().find((l) => l.entry.files[labelsRel] === hash)!.entry.at;
  for (const run of armBRuns()) {
    if (run.condition_id.startsWith(`${manifest.id}/`) && Date.parse(run.started_at) < Date.parse(firstFrozen)) {
      throw new GateError(messages.armB.labelsAfterTelemetry(labelsRel, firstFrozen, rel(run.file), run.started_at));
    }
  }
  return { manifest, manifestFile, labels, labelsFile };
}

/**
 * Moves every registered arm-b run of the chain's sample recorded under a protocol that the
 * current one supersedes to data/excluded/evidence/arm-b/, with the reason in
 * data/excluded/REASONS.jsonl. Returns the moves. Other samples' runs are not touched.
 */
export function excludeSuperseded(protocols: ProtocolChain): Array<{ from: string; to: string; protocol: string }> {
  const older = new Map(protocols.chain.slice(0, -1).map((p) => [p.id, p]));
  const moved: Array<{ from: string; to: string; protocol: string }> = [];
  const registered = listFiles(paths.rawArm('evidence', 'arm-b')).filter((f) => f.endsWith('.jsonl'));
  for (const file of registered) {
    const firstLine = fs.readFileSync(file, 'utf8').split('\n', 1)[0];
    if (!firstLine) continue;
    const [row] = parseJsonl<FirstRow>(firstLine, rel(file));
    if (protocols.sample !== undefined && !row?.condition_id.startsWith(`${protocols.sample}/`)) continue;
    const was = row?.protocol ? older.get(row.protocol) : undefined;
    if (!was) continue;
    const now = protocols.current;
    const reason = `superseded protocol: recorded under ${was.id} (${was.file}, v${was.version}); ${now.id} (${now.file}, v${now.version}) is in force. Kept as evidence of the instrumentation problem that led to the amendment.`;
    const to = excludeFile(file, 'evidence', 'arm-b', reason);
    log({ kind: 'info', message: messages.armB.superseded(rel(file), was.id, now.id) });
    moved.push({ from: rel(file), to: rel(to), protocol: was.id });
  }
  return moved;
}
