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
import path from 'node:path';
import { intOption } from '../../core/cli.ts';
import { paths } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import type { LayersTask } from '../../core/layers.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import type { BrowserName } from '../browser/launch.ts';
import type { RunPlan } from '../kernel/run.ts';
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

/** the agent's name as it may appear in a run id */
export const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'agent';

export function agentPlan(options: {
  identity: AgentIdentity;
  browser: BrowserName;
  timeoutMs?: number;
  smoke: boolean;
  tasks?: LayersTask[];
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
    runUnit: async (task, ctx) => {
      const dir = ctx.smoke ? paths.excludedArm('layers', 'agent') : paths.rawArm('layers', 'agent');
      const agent = processAgent({
        command: identity.command,
        name: identity.name,
        timeoutMs,
        cwd: paths.root(),
        stderrPath: () => path.join(dir, `${ctx.runId}.stderr`, `${task.condition_id}.log`),
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

export const agentOptions = {
  agent: { type: 'string', help: 'the command that runs your agent (or $AGENT); it gets RSTACKBENCH_TASK, RSTACKBENCH_CDP_URL, RSTACKBENCH_WS_ENDPOINT and prints its claim last' },
  'agent-files': { type: 'string', help: "the files that make up your agent, space-separated (or $AGENT_FILES); the rows' agent.sha256 is their hash" },
  'agent-name': { type: 'string', help: "the agent's name in the rows (default: the first file's base name, or the command's last word's)" },
  'agent-timeout-ms': { type: 'string', help: `per condition; the agent's process group is killed after it (default ${DEFAULT_AGENT_TIMEOUT_MS})` },
} as const;

export const timeoutOf = (value: string | undefined) => {
  if (value === undefined) return DEFAULT_AGENT_TIMEOUT_MS;
  const n = intOption(value, 'agent-timeout-ms', DEFAULT_AGENT_TIMEOUT_MS, 1000);
  if (n > 3_600_000) throw new UsageError('--agent-timeout-ms is at most 3600000 (one hour per condition)');
  return n;
};
