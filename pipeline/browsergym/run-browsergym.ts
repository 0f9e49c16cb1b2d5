// make run-browsergym: a BrowserGym agent (or AgentLab's), unchanged, on the 288 `layers`
// conditions as the BrowserGym task suite browsergym/ (arm `agent`, Chromium only).
// Reads: the ledger (gate), data/tasks/layers.jsonl, a frozen prereg/agent-<name>.md (registered runs).
// Writes: a registered run: data/raw/layers/agent/<run>.jsonl and each episode's log beside it,
// manifests/data.sha256, experiment loops' folders in .state/browsergym/<run>/; a --smoke run: the
// same under runs/run-browsergym-<name>/ (git-ignored; or RSTACK_SCRATCH), never the record.
// Prints claimed done, AS, VTS and false completion per layer.
import { main } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { shownPath } from '../../core/paths.ts';
import { UsageError } from '../../core/errors.ts';
import { runSummary } from '../../analysis/run-summary.ts';
import { runOneLine } from '../../report-src/your-run.ts';
import { parseBrowserName } from '../browser/launch.ts';
import { runArm } from '../kernel/run.ts';
import { runFlags } from '../kernel/run-flags.ts';
import { userRunOutput } from '../kernel/user-run.ts';
import { armOptions } from '../layers/arms.ts';
import { agentOptions, maxFailuresOf, timeoutOf } from '../agents/arm.ts';
import { agentIdentity, splitFiles } from '../agents/identity.ts';
import { browsergymPlan } from './arm.ts';

const SUITE_PYTHON = 'browsergym/.venv/bin/python';

await main({
  name: 'make run-browsergym',
  summary: 'score a BrowserGym or AgentLab agent, unchanged, on the 288 `layers` conditions through the BrowserGym task suite (browsergym/): its claim against what the server persisted',
  usage:
    `make run-browsergym AGENT="${SUITE_PYTHON} -m browsergym.rstackbench.episode --agent browsergym/agents/scripted.py:ScriptedAgent" ` +
    '[AGENT_FILES="browsergym/agents/scripted.py"] [ARGS="--smoke --only ^cards-baseline-01"]',
  options: { ...armOptions, ...agentOptions },
  async run(values) {
    if (parseBrowserName(values.browser) !== 'chromium') {
      throw new UsageError('BrowserGym drives Chromium only: a Firefox run of an agent is make run-agent BROWSER=firefox (the project\'s own agent contract, over WebDriver BiDi)');
    }
    const identity = agentIdentity({
      command: values.agent ?? process.env.AGENT ?? '',
      files: splitFiles(values['agent-files'] ?? process.env.AGENT_FILES),
      name: values['agent-name'],
    });
    const timeoutMs = timeoutOf(values['agent-timeout-ms']);
    const maxFailures = maxFailuresOf(values['max-agent-failures']);
    const flags = runFlags(values);
    const output = userRunOutput({ verb: 'run-browsergym', name: identity.name, registered: !flags.smoke });
    let result;
    try {
      result = await runArm(flags, () => browsergymPlan({ identity, timeoutMs, smoke: flags.smoke, maxFailures }));
    } finally {
      output?.end();
    }
    process.stdout.write(
      `layers/agent ${identity.name} chromium (BrowserGym): ${result.rows.length} rows in ${shownPath(result.file)}\n\n` +
        `${runSummary(result.rows, [{ name: 'agent_by_layer', hide: ['browser', 'agent', 'agent_sha256', 'as_rate', 'claimed_rate', 'median_latency_ms'] }])}\n`,
    );
    // an episode BrowserGym cut at its step limit has no claim of its own (issue 50 item 4): say so, with the limit
    const cut = result.rows.filter((r) => (r as { browsergym?: { ended: string } }).browsergym?.ended === 'step_limit');
    if (cut.length) {
      const limits = [...new Set(cut.map((r) => (r as { browsergym?: { max_steps: number | null } }).browsergym?.max_steps))].join(', ');
      process.stdout.write(`\ncut at its step limit: ${cut.length} of ${result.rows.length} episodes (limit ${limits} steps, set with --max-steps N in AGENT): the claim of each is not done, made by the task, not the agent\n`);
    }
    // a run of your own ends with one line: how it did, and how to see it beside the registered
    if (output) process.stdout.write(`\n${runOneLine(result.rows as never, shownPath(output.folder))}\n`);
    const errors = result.rows.filter((r) => r.error).length;
    if (errors) log({ kind: 'warn', message: `${errors} episodes gave no claim (timeout, crash): see the rows' error field and each episode's log beside the run` });
    return 0;
  },
});
