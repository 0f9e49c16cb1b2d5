// An outside agent's identity — { name, command, sha256 } — and the frozen prereg that registers it.
//
//   AGENT="<command>" AGENT_FILES="<paths>" ─▶ agentIdentity(): sha256 over the files' paths and bytes
//   prereg/agent-<name>.md (frozen by make freeze) ─▶ registeredAgent(): the prereg whose Command
//   and Files blocks name exactly this command and these files, hashed the same way today
//
// A prereg without files registers sha256 "none" (the agent's bytes are then not pinned).
// The gate (pipeline/kernel/gate.ts) already refuses a tree whose prereg/*.md differ from the ledger
// head, so a prereg found here is frozen; this adds that the agent run is the one it registers.
import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from '../../core/hash.ts';
import { paths, rel } from '../../core/paths.ts';
import { UsageError, GateError } from '../../core/errors.ts';
import { readPreregs, type Prereg } from '../kernel/prereg.ts';

export interface AgentIdentity {
  name: string;
  command: string;
  /** over the AGENT_FILES (sorted): "path\0sha256(bytes)\n" each; null when no file is given */
  sha256: string | null;
  files: string[];
}

/** Splits AGENT_FILES: whitespace-separated paths from the repository root. */
export const splitFiles = (value: string | undefined) => (value ?? '').split(/\s+/).filter(Boolean);

export function agentIdentity(options: { command: string; files?: string[]; name?: string }): AgentIdentity {
  const command = options.command.trim();
  if (!command) throw new UsageError('AGENT is empty: give the command that runs your agent, e.g. make run-agent AGENT="python3 my_agent.py"');
  const files = [...new Set((options.files ?? []).map((f) => path.normalize(f)))].sort();
  const lines = files.map((f) => {
    const file = path.resolve(paths.root(), f);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`AGENT_FILES: ${f} is not a file (paths are relative to ${rel(paths.root()) || '.'})`);
    return `${f}\0${sha256(fs.readFileSync(file))}\n`;
  });
  const name = options.name ?? path.basename(files[0] ?? command.split(/\s+/).at(-1) ?? 'agent').replace(/\.[a-z0-9]+$/i, '');
  return { name, command, sha256: files.length ? sha256(lines.join('')) : null, files };
}

/** The fenced block that follows the first line starting with `label` in a prereg's text. */
function blockAfter(text: string, label: string): string | null {
  const at = text.split('\n').findIndex((l) => l.trim().startsWith(label));
  if (at < 0) return null;
  const rest = text.split('\n').slice(at + 1).join('\n');
  const m = /```[a-z]*\n([\s\S]*?)\n\s*```/.exec(rest);
  return m ? m[1]!.split('\n').map((l) => l.trim()).join('\n').trim() : null;
}

/**
 * The fenced block directly below the first line starting with `label` (blank lines between allowed):
 * its lines trimmed; null when the next non-blank line opens no block; undefined when no line has the label.
 */
function blockBelow(text: string, label: string): string | null | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim().startsWith(label));
  if (at < 0) return undefined;
  let i = at + 1;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (!lines[i]?.trim().startsWith('```')) return null;
  const body: string[] = [];
  for (i++; i < lines.length && !lines[i]!.trim().startsWith('```'); i++) body.push(lines[i]!.trim());
  return body.join('\n').trim();
}

/** The label of a prereg's slice: a fenced block of condition ids right below it (none: all 288). */
export const SLICE_LABEL = '- Slice (condition ids)';

/** The condition ids of the fenced block that directly follows the line starting with SLICE_LABEL; null without one. */
function sliceOf(text: string, file: string): string[] | null {
  const block = blockBelow(text, SLICE_LABEL);
  if (block === undefined) return null;
  if (block === null) throw new UsageError(`${file}: "${SLICE_LABEL}" must be followed by a fenced block of condition ids`);
  const ids = block.split(/\s+/).filter(Boolean);
  if (!ids.length) throw new UsageError(`${file}: the slice names no condition`);
  return ids;
}

/** Which conditions an agent's prereg registers it on: the small apps' (the default) or the real applications'. */
export type AgentConditions = 'layers' | 'real-apps';
/** The label of a prereg's condition set: a fenced block with `real-apps` right below it (none: the small apps' conditions). */
export const CONDITIONS_LABEL = '- Conditions';

/** What a prereg of arm `agent` registers: its command and files (from its "- Command" and "- Files" blocks), its slice if it has one, and its condition set. */
export function registeredIdentity(prereg: Prereg): { command: string | null; files: string[]; sha256: string | null; slice: string[] | null; conditions: AgentConditions } {
  const text = fs.readFileSync(path.join(paths.root(), prereg.file), 'utf8');
  const hash = blockAfter(text, '- SHA-256');
  // only a block right below its label: the template's "- Conditions: all 288 …" is prose, and the
  // next fenced block after it may be the slice's
  const conditions = blockBelow(text, CONDITIONS_LABEL) ?? null;
  if (conditions !== null && conditions !== 'layers' && conditions !== 'real-apps') throw new GateError(`${prereg.file}: its ${CONDITIONS_LABEL} block says ${JSON.stringify(conditions)}, not layers or real-apps`);
  return {
    conditions: (conditions ?? 'layers') as AgentConditions,
    command: blockAfter(text, '- Command'),
    files: splitFiles(blockAfter(text, '- Files') ?? '').map((f) => path.normalize(f)).sort(),
    sha256: hash && /^[0-9a-f]{64}$/.test(hash) ? hash : null, // "none" when no file is given
    slice: sliceOf(text, prereg.file),
  };
}

/** The frozen prereg that registers this agent, or a GateError saying what to do. */
export function registeredAgent(identity: AgentIdentity, conditions: AgentConditions = 'layers'): Prereg {
  const candidates = readPreregs().filter((p) => p.study === 'layers' && p.arm === 'agent');
  const superseded = new Set(candidates.map((p) => p.supersedes).filter(Boolean));
  const match = candidates.filter((p) => !superseded.has(p.id)).find((p) => {
    const r = registeredIdentity(p);
    return r.conditions === conditions && r.command === identity.command && JSON.stringify(r.files) === JSON.stringify(identity.files) && r.sha256 === identity.sha256;
  });
  if (!match) {
    throw new GateError(
      `no frozen prereg/agent-*.md registers, on the ${conditions === 'real-apps' ? 'real applications\' conditions' : 'small apps\' conditions'}, the command ${JSON.stringify(identity.command)} with AGENT_FILES ${JSON.stringify(identity.files.join(' '))} ` +
        `of sha256 ${identity.sha256 ?? '(no files)'}: ` +
        'copy prereg/templates/agent.md to prereg/agent-<name>.md, fill in that command and those files, make freeze, then run (a --smoke run needs no prereg)',
    );
  }
  return match;
}
