// The Arm B protocol in force: prereg/evidence-arm-b.md (v1) and the amendments that supersede it,
// each a new file that names what it supersedes. The newest is the one nothing supersedes; it
// registers the policies a run computes, in a "## Registered policies" list of `name` items.
//
//   evidence-arm-b (v1) ◀─supersedes── evidence-arm-b.v1.1 ◀─supersedes── evidence-arm-b.v1.2 …
//
// A run records the id of the protocol it ran under. Runs under an older protocol of the chain
// are superseded: the runner moves them to data/excluded/ with the reason, never deletes them.
//
// Each production sample (a manifest id) follows its own chain: an amendment that names
// `samples:` applies to those samples only, one without applies to every sample. A measurement
// problem found on one site is amended for that site; the runs of a sample the amendment does not
// name stay in force under the protocol they ran under.
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../../../core/paths.ts';
import { GateError, ValidationError } from '../../../core/errors.ts';
import { readPreregs } from '../../kernel/prereg.ts';
import { messages } from '../../../core/messages.ts';
import { isProductionPolicy, productionPolicies, type ProductionPolicyName } from '../../../core/evidence/production.ts';

export interface Protocol {
  id: string;
  study: string;
  arm: string;
  version: string;
  supersedes: string | null;
  title?: string;
  /** the samples (manifest ids) it applies to; undefined: every sample */
  samples?: string[];
  /** relative to the root */
  file: string;
  policies: ProductionPolicyName[];
}

/** The `name` items of the "## Registered policies" section, in order. */
export function registeredPolicies(body: string, file: string): ProductionPolicyName[] {
  const section = /^##\s+Registered policies\s*$([\s\S]*?)(?=^##\s|(?![\s\S]))/m.exec(body);
  const names = section ? [...section[1]!.matchAll(/^\s*[-*]\s+`([a-z0-9-]+)`/gm)].map((m) => m[1]!) : [];
  if (!names.length) throw new ValidationError(file, null, 'Registered policies', messages.armB.noPolicies(file));
  for (const n of names) {
    if (!isProductionPolicy(n)) throw new ValidationError(file, null, 'Registered policies', messages.armB.unknownPolicy(file, n, Object.keys(productionPolicies)));
  }
  return names as ProductionPolicyName[];
}

/** Every prereg of study evidence, arm arm-b, in prereg/ (subfolders hold drafts, not preregistrations). */
export function readArmBProtocols(): Protocol[] {
  return readPreregs()
    // a reporting amendment (`amends:`) adds promises, never policies: it is not in the protocol chain
    .filter((p) => p.study === 'evidence' && p.arm === 'arm-b' && !p.amends)
    .map((p) => {
      const text = fs.readFileSync(path.join(root(), p.file), 'utf8');
      const body = text.slice(text.indexOf('\n---\n', 3) + 5);
      return { ...p, supersedes: p.supersedes ?? null, samples: p.samples ?? undefined, policies: registeredPolicies(body, p.file) };
    });
}

export interface ProtocolChain {
  /** the protocol in force */
  current: Protocol;
  /** every protocol, oldest first; all but the last are superseded */
  chain: Protocol[];
  /** the sample the chain is for (undefined: protocols that name no sample only) */
  sample?: string;
}

/** Whether a protocol applies to a sample: it names none (every sample), or names this one. */
export const appliesTo = (p: Pick<Protocol, 'samples'>, sample: string | undefined) => !p.samples || (sample !== undefined && p.samples.includes(sample));

/**
 * Follows `supersedes` from v1 to the newest amendment that applies to the sample; a fork or a
 * dangling link is refused.
 */
export function protocolChain(everything = readArmBProtocols(), sample?: string): ProtocolChain {
  const all = everything.filter((p) => appliesTo(p, sample));
  const roots = all.filter((p) => !p.supersedes);
  if (roots.length !== 1) {
    throw new GateError(roots.length ? messages.armB.protocolFork(roots.map((p) => p.id)) : messages.armB.noProtocol());
  }
  const chain = [roots[0]!];
  for (;;) {
    const next = all.filter((p) => p.supersedes === chain.at(-1)!.id);
    if (next.length > 1) throw new GateError(messages.armB.protocolFork(next.map((p) => p.id)));
    if (!next.length) break;
    chain.push(next[0]!);
  }
  const orphans = all.filter((p) => !chain.includes(p));
  if (orphans.length) throw new GateError(`refusing to run: ${orphans.map((p) => `${p.file} supersedes ${p.supersedes}`).join('; ')}, which is not in the arm-b chain`);
  return { current: chain.at(-1)!, chain, sample };
}
