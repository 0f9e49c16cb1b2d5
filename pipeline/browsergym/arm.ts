// BrowserGym episodes as the `agent` arm on the run skeleton (pipeline/kernel/run.ts): the gate, the
// run files, resume, --only, --shard and the data manifest are the skeleton's, as for every agent.
//
//   AGENT (one episode's command) + AGENT_FILES ─▶ identity (pipeline/agents/identity.ts) ─▶ a
//   registered run needs the frozen prereg/agent-<name>.md that names exactly it ─▶ units: the 288
//   conditions, or its slice (agentUnits) ─▶ per condition: browsergymEpisode (episode.ts) as
//   runLayersTrace's stage and agent ─▶ scored like every outside agent (claimedOutcome: false
//   completion = claimed done and not VTS) ─▶ a row of arm `agent` with its `agent` and its `claim`
//
// Per worker: a fixture server and a control endpoint (control.ts), both on 127.0.0.1. The row's
// browser is the skeleton's Debian Chromium; each episode's setup checks that BrowserGym's is the
// same (episode.ts). One run per agent: data/raw/layers/agent/layers-agent-<name>-chromium-<time>.jsonl;
// each episode's output beside it in <run>.stderr/<condition>.log, an experiment loop's folder in
// .state/browsergym/<run>/ (step pickles and screenshots: not part of the record).
import path from 'node:path';
import { outputRoot, paths } from '../../core/paths.ts';
import type { LayersTask } from '../../core/layers.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import type { RunPlan } from '../kernel/run.ts';
import { runLayersTrace } from '../layers/condition.ts';
import { MAIN_BOUNDARY_MS, flagRuleInForce } from '../layers/protocol.ts';
import { agentFailureStop, agentLogFile, agentUnits, slug, DEFAULT_MAX_AGENT_FAILURES } from '../agents/arm.ts';
import { claimedOutcome } from '../agents/agent-trace.ts';
import type { AgentIdentity } from '../agents/identity.ts';
import { startControlServer, type ControlServer } from './control.ts';
import { browsergymEpisode } from './episode.ts';

interface Worker { server: FixtureServer; control: ControlServer; browserVersion: string }

/** where an episode's experiment loop keeps its folder: beside the scratch or data root's state, never in the record */
export const experimentsDir = (runId: string) => path.join(outputRoot(), '.state', 'browsergym', runId);

export function browsergymPlan(options: { identity: AgentIdentity; timeoutMs: number; smoke: boolean; tasks?: LayersTask[]; maxFailures?: number }): RunPlan<LayersTask, LayersRow, Worker> {
  const { identity, timeoutMs } = options;
  return {
    study: 'layers',
    arm: 'agent',
    browser: 'chromium',
    runPrefix: `layers-agent-${slug(identity.name)}-chromium`,
    units: agentUnits(identity, options.smoke, options.tasks),
    conditionOf: (task) => task.condition_id,
    unitKey: (task) => task.condition_id,
    rowKey: (row) => row.condition_id,
    // an episode the harness refused before its page was open (another browser than the run's) is tried
    // once more, the failed attempt kept; a process that exits before then is the agent's: an error row
    retries: 1,
    stopAfter: agentFailureStop(options.maxFailures ?? DEFAULT_MAX_AGENT_FAILURES),
    worker: {
      setup: async (browser) => ({ server: await startFixtureServer(), control: await startControlServer(), browserVersion: browser.version }),
      teardown: async (w) => { await w.control.stop(); await w.server.close(); },
    },
    runUnit: async (task, ctx) => {
      const episode = browsergymEpisode({
        control: ctx.worker.control,
        task,
        command: identity.command,
        cwd: paths.root(),
        timeoutMs,
        logFile: agentLogFile(ctx.smoke, ctx.runId, task.condition_id),
        expDir: path.join(experimentsDir(ctx.runId), task.condition_id),
        tasksFile: path.join(paths.tasks(), 'layers.jsonl'),
        browserVersion: ctx.worker.browserVersion,
      });
      let traced;
      try {
        traced = await runLayersTrace({ server: ctx.worker.server, task, agent: episode.agent, stage: episode.stage, scoring: { kind: 'after-policy', boundaryMs: MAIN_BOUNDARY_MS }, flagRule: flagRuleInForce() });
      } catch (error) {
        await episode.finish(null);
        throw error;
      }
      const { result, ...outcome } = traced;
      const { error, account } = await episode.finish(outcome);
      return {
        condition_id: task.condition_id,
        policy: identity.name,
        agent: { name: identity.name, command: identity.command, sha256: identity.sha256 },
        ...claimedOutcome(outcome, error ? { ...result, claim: null, error } : result),
        ...(account && !error ? { browsergym: account } : {}),
      };
    },
  };
}
