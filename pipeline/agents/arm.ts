// The `agent` arm on the run skeleton (pipeline/kernel/run.ts): an outside agent on every `layers`
// condition, one trace each, in a fresh browser of its own (agent-trace.ts).
//
//   AGENT + AGENT_FILES ─▶ identity (identity.ts) ─▶ a registered run needs the frozen
//   prereg/agent-<name>.md that names exactly it ─▶ units: the 288 conditions, or the prereg's slice
//   ("- Slice (condition ids)" and a fenced block of ids) ─▶ per condition:
//   runAgentTrace(processAgent) ─▶ a row of arm `agent` with its `agent` and its `claim`
//
// One run per agent and browser: data/raw/layers/agent/layers-agent-<name>-<browser>-<time>.jsonl;
// the agent's stderr beside it, in <run>.stderr/<condition>.log.
import fs from 'node:fs';
import path from 'node:path';
import { intOption } from '../../core/cli.ts';
import { paths } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import { messages } from '../../core/messages.ts';
import type { LayersTask } from '../../core/layers.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import type { BrowserName } from '../browser/launch.ts';
import type { RunPlan } from '../kernel/run.ts';
import { slug } from '../kernel/user-run.ts';
import { readLayersTasks } from '../layers/read-tasks.ts';
import { MAIN_BOUNDARY_MS } from '../layers/protocol.ts';
import { runAgentTrace } from './agent-trace.ts';
import { processAgent, DEFAULT_AGENT_TIMEOUT_MS } from './process-agent.ts';
import { registeredAgent, registeredIdentity, type AgentConditions, type AgentIdentity } from './identity.ts';

/**
 * The conditions an agent's run is on: a registered run is the one its frozen prereg names (the
 * gate has already checked the freeze), on the conditions it names: all 288, or its slice; a smoke
 * run on all 288 (before --only).
 */
export function agentUnits<T extends { condition_id: string } = LayersTask>(identity: AgentIdentity, smoke: boolean, tasks: T[] = readLayersTasks() as unknown as T[], taskFile = 'data/tasks/layers.jsonl', conditions: AgentConditions = 'layers'): T[] {
  const prereg = smoke ? null : registeredAgent(identity, conditions);
  const slice = prereg ? registeredIdentity(prereg).slice : null;
  if (!slice) return tasks;
  const byId = new Map(tasks.map((t) => [t.condition_id, t]));
  const missing = slice.filter((id) => !byId.has(id));
  if (missing.length) throw new UsageError(`${prereg!.file}: its slice names conditions that are not in ${taskFile}: ${missing.join(', ')}`);
  if (new Set(slice).size !== slice.length) throw new UsageError(`${prereg!.file}: its slice names a condition twice`);
  return slice.map((id) => byId.get(id)!);
}

/** the agent's name as it may appear in a run id (pipeline/kernel/user-run.ts names a user's run folder by it too) */
export { slug };

export function agentPlan(options: {
  identity: AgentIdentity;
  browser: BrowserName;
  timeoutMs?: number;
  smoke: boolean;
  tasks?: LayersTask[];
  /** --max-agent-failures (default DEFAULT_MAX_AGENT_FAILURES) */
  maxFailures?: number;
}): RunPlan<LayersTask, LayersRow, FixtureServer> {
  const { identity, browser } = options;
  const units = agentUnits(identity, options.smoke, options.tasks);
  const timeoutMs = options.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
  return {
    study: 'layers',
    arm: 'agent',
    browser,
    runPrefix: `layers-agent-${slug(identity.name)}-${browser}`,
    units,
    conditionOf: (task) => task.condition_id,
    unitKey: (task) => task.condition_id,
    rowKey: (row) => row.condition_id,
    worker: { setup: () => startFixtureServer(), teardown: (server) => server.close() },
    stopAfter: agentFailureStop(options.maxFailures ?? DEFAULT_MAX_AGENT_FAILURES),
    runUnit: async (task, ctx) => {
      const agent = processAgent({
        command: identity.command,
        name: identity.name,
        timeoutMs,
        cwd: paths.root(),
        stderrPath: () => agentLogFile(ctx.smoke, ctx.runId, task.condition_id),
      });
      const { browser: _ownBrowser, ...outcome } = await runAgentTrace({
        browserName: browser,
        server: ctx.worker,
        task,
        agent,
        scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS },
      });
      return {
        condition_id: task.condition_id,
        policy: identity.name,
        agent: { name: identity.name, command: identity.command, sha256: identity.sha256 },
        ...outcome,
      };
    },
  };
}

/** consecutive conditions without a claim after which an agent's run stops (--max-agent-failures) */
export const DEFAULT_MAX_AGENT_FAILURES = 5;

/** the last lines of an agent's stderr, as one line (nothing when it is missing or empty); a JavaScript
 *  stack's frames are left out, so that the error a Node agent printed above them is among them */
export function tailLine(file: string, lines = 5, maxChars = 600): string {
  let text: string;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return ''; }
  const last = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !/^at\s/.test(l)).slice(-lines).join(' | ');
  return last.length > maxChars ? `…${last.slice(-maxChars)}` : last;
}

/** where the skeleton keeps an agent's stderr (or an episode's log) for one condition of a run */
export const agentLogFile = (smoke: boolean, runId: string, conditionId: string) =>
  path.join(smoke ? paths.excludedArm('layers', 'agent') : paths.rawArm('layers', 'agent'), `${runId}.stderr`, `${conditionId}.log`);

/**
 * The run stops once `limit` conditions in a row gave no claim (a crash at start, a missing module,
 * a hang each time), in one line with the end of the last one's stderr; 0: never.
 */
export function agentFailureStop(limit: number): RunPlan<unknown, LayersRow, unknown>['stopAfter'] {
  return {
    failures: limit,
    isFailure: (row) => row.claim === null && Boolean(row.error),
    message: (count, last) => messages.agentFailuresStop(count, last.error ?? 'no claim', tailLine(agentLogFile(last.smoke === true, last.run_id, last.condition_id))),
  };
}

export const agentOptions = {
  agent: { type: 'string', help: 'the command that runs your agent (or $AGENT); it gets RSTACKBENCH_TASK, RSTACKBENCH_CDP_URL, RSTACKBENCH_WS_ENDPOINT and prints its claim last' },
  'agent-files': { type: 'string', help: "the files that make up your agent, space-separated (or $AGENT_FILES); the rows' agent.sha256 is their hash" },
  'agent-name': { type: 'string', help: "the agent's name in the rows (default: the first file's base name, or the command's last word's)" },
  'agent-timeout-ms': { type: 'string', help: `per condition; the agent's process group is killed after it (default ${DEFAULT_AGENT_TIMEOUT_MS})` },
  'max-agent-failures': { type: 'string', help: `stop the run after this many conditions in a row without a claim (a crash, a timeout, no claim line), naming the last error and the end of its stderr; 0: never (default ${DEFAULT_MAX_AGENT_FAILURES})` },
} as const;

export const maxFailuresOf = (value: string | undefined) => intOption(value, 'max-agent-failures', DEFAULT_MAX_AGENT_FAILURES, 0);

export const timeoutOf = (value: string | undefined) => {
  if (value === undefined) return DEFAULT_AGENT_TIMEOUT_MS;
  const n = intOption(value, 'agent-timeout-ms', DEFAULT_AGENT_TIMEOUT_MS, 1000);
  if (n > 3_600_000) throw new UsageError('--agent-timeout-ms is at most 3600000 (one hour per condition)');
  return n;
};
