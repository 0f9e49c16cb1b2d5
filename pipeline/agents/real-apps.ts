// An outside agent on the real-applications conditions (arm `agent`, issue 36): the same agent
// contract as on the small apps — the instruction, the start URL, a fresh browser it attaches to —
// with the browser going through the run's fault proxy to WordPress or MediaWiki, logged in, and
// the condition scored by the application's database (pipeline/layers/real-apps/condition.ts).
//
//   AGENT ─▶ identity ─▶ units: the 222 real-application conditions, or the frozen prereg's slice
//   ─▶ per condition: a fresh Chromium through the proxy (agent-browser.ts) ─▶ runRealAppTrace
//   ─▶ a row of arm `agent` with its `agent`, its `claim`, and the real-application fields
//
// Chromium only: Firefox ESR takes one WebDriver BiDi session at a time, and the harness would need
// its own to set the session's cookies and watch the notice before the agent's; the small apps' Firefox
// path (an observer extension) watches their page only. A Firefox run is refused, saying so.
import { paths } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import type { LayersRealAppsTask } from '../../core/contracts.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import type { BrowserName } from '../browser/launch.ts';
import type { RunPlan } from '../kernel/run.ts';
import { readRealAppsTasks, realAppsResources, INFRASTRUCTURE_RETRIES } from '../layers/real-apps/arm.ts';
import { runRealAppTrace } from '../layers/real-apps/condition.ts';
import { verdictOf } from '../../core/verdict.ts';
import { launchAgentBrowser } from './agent-browser.ts';
import { agentFailureStop, agentLogFile, agentUnits, slug, DEFAULT_MAX_AGENT_FAILURES } from './arm.ts';
import { processAgent, DEFAULT_AGENT_TIMEOUT_MS } from './process-agent.ts';
import type { AgentIdentity } from './identity.ts';

export function agentRealAppsPlan(options: {
  identity: AgentIdentity;
  browser: BrowserName;
  timeoutMs?: number;
  smoke: boolean;
  resources: ReturnType<typeof realAppsResources>;
  tasks?: LayersRealAppsTask[];
  /** --max-agent-failures (default DEFAULT_MAX_AGENT_FAILURES) */
  maxFailures?: number;
}): RunPlan<LayersRealAppsTask, LayersRow, void> {
  const { identity, browser, resources } = options;
  if (browser !== 'chromium') throw new UsageError('an outside agent on the real-applications conditions runs in Chromium only: Firefox ESR takes one BiDi session at a time, and the harness needs its own to log the browser in and watch the notice (docs/score-your-agent.md)');
  const units = agentUnits(identity, options.smoke, options.tasks ?? readRealAppsTasks(), 'data/tasks/layers-real-apps.jsonl', 'real-apps');
  const timeoutMs = options.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
  return {
    study: 'layers',
    arm: 'agent',
    browser,
    runPrefix: `layers-agent-${slug(identity.name)}-real-apps-${browser}`,
    units,
    conditionOf: (task) => task.condition_id,
    unitKey: (task) => task.condition_id,
    rowKey: (row) => row.condition_id,
    retries: INFRASTRUCTURE_RETRIES,
    stopAfter: agentFailureStop(options.maxFailures ?? DEFAULT_MAX_AGENT_FAILURES),
    runUnit: async (task, ctx) => {
      const { apps, proxy } = await resources.get();
      const app = apps[task.app];
      const agent = processAgent({
        command: identity.command,
        name: identity.name,
        timeoutMs,
        cwd: paths.root(),
        stderrPath: () => agentLogFile(ctx.smoke, ctx.runId, task.condition_id),
      });
      const launched = await launchAgentBrowser(browser, { proxy: { server: proxy.url, ca: proxy.ca } });
      try {
        const { result, ...outcome } = await runRealAppTrace({ stage: { context: launched.context!, proxy, app }, task, agent, endpoints: launched.endpoints, phases: ctx.phases });
        return {
          condition_id: task.condition_id,
          policy: identity.name,
          agent: { name: identity.name, command: identity.command, sha256: identity.sha256 },
          ...outcome,
          claim: result.claim,
          ...verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: result.claim, rule: 'claim-if-kept' }),
          actions: result.actions ?? null,
          retries: result.retries ?? null,
          error: result.error ?? outcome.error,
        };
      } finally {
        await launched.close();
      }
    },
  };
}
