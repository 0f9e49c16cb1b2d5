// make run-agent: an outside agent, any language, on the 288 `layers` conditions (arm `agent`).
// Reads: the ledger (gate), data/tasks/layers.jsonl, a frozen prereg/agent-<name>.md (registered runs).
// Writes: a registered run: data/raw/layers/agent/<run>.jsonl and the agent's stderr beside it,
// manifests/data.sha256; a --smoke run: the same under runs/run-agent-<name>/ (git-ignored; or
// RSTACK_SCRATCH), never the record (pipeline/kernel/user-run.ts). Prints claimed done, AS, VTS and
// false completion per layer.
import { main } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { shownPath } from '../../core/paths.ts';
import { runSummary } from '../../analysis/run-summary.ts';
import { runOneLine } from '../../report-src/your-run.ts';
import { parseBrowserName } from '../browser/launch.ts';
import { runArm } from '../kernel/run.ts';
import { armOptions } from '../layers/arms.ts';
import { runFlags } from '../kernel/run-flags.ts';
import { agentOptions, agentPlan, maxFailuresOf, timeoutOf } from './arm.ts';
import { agentIdentity, splitFiles } from './identity.ts';
import { agentRealAppsPlan } from './real-apps.ts';
import { realAppsResources } from '../layers/real-apps/arm.ts';
import { UsageError } from '../../core/errors.ts';
import { userRunOutput } from '../kernel/user-run.ts';

await main({
  name: 'make run-agent',
  summary: 'score an outside agent on the 288 `layers` conditions: its claim against what the server persisted',
  usage: 'make run-agent AGENT="python3 my_agent.py" [AGENT_FILES="my_agent.py"] [ARGS="--smoke --only cards-baseline --agent-timeout-ms 90000"]',
  options: {
    ...armOptions,
    ...agentOptions,
    conditions: { type: 'string', default: 'layers', help: 'layers: the 288 conditions of the three small apps; real-apps: the 222 on WordPress and MediaWiki behind the fault proxy (Chromium; both apps started unless they run)' },
  },
  async run(values) {
    const browser = parseBrowserName(values.browser);
    const identity = agentIdentity({
      command: values.agent ?? process.env.AGENT ?? '',
      files: splitFiles(values['agent-files'] ?? process.env.AGENT_FILES),
      name: values['agent-name'],
    });
    const timeoutMs = timeoutOf(values['agent-timeout-ms']);
    const maxFailures = maxFailuresOf(values['max-agent-failures']);
    const flags = runFlags(values);
    if (values.conditions !== 'layers' && values.conditions !== 'real-apps') throw new UsageError(`--conditions takes layers or real-apps, not ${JSON.stringify(values.conditions)}`);
    const resources = realAppsResources();
    const output = userRunOutput({ verb: 'run-agent', name: identity.name, registered: !flags.smoke });
    let result;
    try {
      result = values.conditions === 'real-apps'
        ? await runArm(flags, () => agentRealAppsPlan({ identity, browser, timeoutMs, smoke: flags.smoke, resources, maxFailures }))
        : await runArm(flags, () => agentPlan({ identity, browser, timeoutMs, smoke: flags.smoke, maxFailures }));
    } finally {
      await resources.close();
      output?.end();
    }
    process.stdout.write(
      `layers/agent ${identity.name} ${browser}: ${result.rows.length} rows in ${shownPath(result.file)}\n\n` +
        `${runSummary(result.rows, [{ name: 'agent_by_layer', hide: ['browser', 'agent', 'agent_sha256', 'as_rate', 'claimed_rate', 'median_latency_ms'] }])}\n`,
    );
    // a run of your own ends with one line: how it did, and how to see it beside the registered
    if (output) process.stdout.write(`\n${runOneLine(result.rows as never, shownPath(output.folder))}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} conditions gave no claim (timeout, crash or no claim line): see the rows' error field and the agent's stderr beside the run` });
    return 0;
  },
});
