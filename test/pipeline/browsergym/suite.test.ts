// The BrowserGym task suite end to end: a scripted BrowserGym agent (browsergym/agents/scripted.py,
// a browsergym.experiments Agent acting through BrowserGym's own action set on element ids),
// registered in a throw-away tree (its prereg from the template, a slice of one condition per fault
// layer across the three apps, frozen), runs through `run-browsergym` in BrowserGym's loop and
// Debian's Chromium. Each row must be a schema-valid row of arm `agent` that the reanalysis counts
// like any agent's, and its reward (VTS) and claim must be what the condition's faults make of that
// agent's rules — derived below from the task definitions, never from a recorded outcome:
//   the agent acts on the first record whose name *contains* the one asked for (a Perception decoy
//   comes first and contains it); it activates the commit control until a success line shows, at
//   most MAX_COMMITS times, then reports it infeasible (the Action fault swallows 1 to 3); a success
//   line is all it checks (Verification's first saves are answered "saved" and not committed); it
//   claims with its next action, and BrowserGym waits pre_observation_delay (0.5 s) after every
//   action before it validates, so the claim comes at least 1 s after the save (State commits at
//   most 700 ms after it); it waits for a record, or its controls, not shown yet (Access).
//
// Needs the suite's venv (make test makes it: rstackbench with-sites --examples; make browsergym
// alone). Without it the test fails, naming the install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersTask } from '../../../core/layers.ts';
import type { LayersRow } from '../../../analysis/rows.ts';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';
import { agentIdentity } from '../../../pipeline/agents/identity.ts';
import { launchBrowser } from '../../../pipeline/browser/launch.ts';
import { suitePython } from '../../../pipeline/browsergym/install.ts';
import { reanalyze } from '../../../analysis/reanalyze.ts';

const installed = fs.existsSync(suitePython);
const install = 'make browsergym makes it (make test does: npx rstackbench with-sites --examples -- true)';
const agentFile = 'browsergym/agents/scripted.py';
const agentSource = fs.readFileSync(path.join(codeRoot, agentFile), 'utf8');
/** the agent's budget of commit activations, as it declares it */
const MAX_COMMITS = Number(/^MAX_COMMITS = (\d+)$/m.exec(agentSource)?.[1]);
/** BrowserGym's BrowserEnv: seconds it waits after every action before it validates (its default, which the episode keeps) */
const PRE_OBSERVATION_DELAY_MS = 500;

// one per layer, the three apps in turn; the hardest severity where it decides the outcome
const conditions = ['cards-baseline-01', 'profile-access-03', 'modal-perception-01', 'cards-action-03', 'profile-state-03', 'modal-verification-02'];

/** What the scripted agent's rules make of a condition's faults. */
function designed(task: LayersTask): { claimDone: boolean; vts: boolean } {
  const f = task.faults;
  const saved = f.swallow_clicks < MAX_COMMITS; // a save the server took, so a success line
  const claimDone = saved; // it claims done on the success line, else reports infeasible
  const vts =
    saved &&
    f.decoys === 0 && // else the decoy is what it saved
    f.saves_required === 1 && // it saves once: the success line shows at the first accepted save
    f.commit_delay_ms < 2 * PRE_OBSERVATION_DELAY_MS; // the commit lands before its claim
  return { claimDone, vts };
}

test(`a scripted BrowserGym agent through the suite, one condition per layer: reward (VTS) and claim as the faults design them`, { timeout: 15 * 60_000 }, async (t) => {
  assert.ok(installed, `the suite's venv is not there (${suitePython}): ${install}`);
  assert.ok(MAX_COMMITS >= 1 && MAX_COMMITS <= 3, `${agentFile} declares MAX_COMMITS (1 to 3: the Action fault's range)`);
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  tree.write(agentFile, agentSource);
  const command = `${suitePython} -m browsergym.rstackbench.episode --agent ${agentFile}:ScriptedAgent`;
  const identity = agentIdentity({ command, files: [agentFile], name: 'scripted-browsergym' });
  // registered as any agent is: its prereg from the template, with the slice, frozen
  tree.write('prereg/agent-scripted-browsergym.md', fs.readFileSync(path.join(codeRoot, 'prereg/templates/agent.md'), 'utf8')
    .replace(/<!--[\s\S]*?-->\n/, '')
    .replaceAll('{{NAME}}', 'scripted-browsergym').replaceAll('{{COMMAND}}', command).replaceAll('{{FILES}}', agentFile).replaceAll('{{SHA256}}', identity.sha256!)
    .replace('## Analysis', `- Slice (condition ids)\n\n  \`\`\`\n  ${conditions.join(' ')}\n  \`\`\`\n\n## Analysis`));
  await freeze('test');
  const run = await runScript(tree, 'browsergym/run-browsergym.ts', ['--agent', command, '--agent-files', agentFile, '--agent-name', 'scripted-browsergym']);
  assert.equal(run.exitCode, 0, run.stderr);

  const dir = tree.file('data/raw/layers/agent');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1, files.join());
  assert.match(files[0]!, /^layers-agent-scripted-browsergym-chromium-\d{8}T\d{6}\.jsonl$/, 'a registered run');
  assert.equal(fs.existsSync(tree.file('data/excluded/layers/agent')), false, 'no episode failed before its page was open');
  // validated against schemas/trace.schema.json as it is read
  const rows = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => r.condition_id).sort(), [...conditions].sort());

  const tasks = new Map(readJsonl<LayersTask>(tree.file('data/tasks/layers.jsonl')).map((task) => [task.condition_id, task]));
  const debian = await launchBrowser('chromium');
  const version = debian.version;
  await debian.browser.close();
  const seen = new Set<boolean>();
  for (const row of rows) {
    const task = tasks.get(row.condition_id)!;
    const want = designed(task);
    const log = fs.readFileSync(path.join(dir, files[0]!.replace(/\.jsonl$/, '.stderr'), `${row.condition_id}.log`), 'utf8');
    const what = `${row.condition_id} (faults ${JSON.stringify(task.faults)}): claim ${JSON.stringify(row.claim)}, vts ${row.vts}, error ${row.error}\n${log.slice(-2000)}`;
    assert.equal(row.arm, 'agent');
    assert.equal(row.study, 'layers');
    assert.deepEqual(row.agent, { name: 'scripted-browsergym', command, sha256: identity.sha256 }, 'the agent identified like any agent: its files hashed');
    assert.match(row.agent!.sha256!, /^[0-9a-f]{64}$/);
    assert.deepEqual(row.browser, { name: 'chromium', version }, "Debian's Chromium, the version BrowserGym's setup reported");
    assert.equal(row.error, null, what);
    assert.ok(row.claim, what);
    assert.equal(row.claim!.done, want.claimDone, `claim: ${what}`);
    assert.equal(row.vts, want.vts, `VTS: ${what}`);
    // the reward BrowserGym's loop got from the task's validate (the episode's log) is that VTS
    const ended = /rstackbench episode: (\d+) steps, reward ([\d.]+), terminated (True|False), truncated (True|False)/.exec(log);
    assert.ok(ended, `the episode ran to its end: ${what}`);
    assert.equal(Number(ended[2]), want.vts ? 1 : 0, `reward: ${what}`);
    assert.equal(ended[3], 'True', `the claim ended the episode: ${what}`);
    assert.equal(Number(ended[1]), row.actions, `its steps are the row's actions: ${what}`);
    // the loop's own account in the row, BrowserGym's reward beside VTS (issue 50 item 4)
    assert.deepEqual(row.browsergym, { ended: 'claim', steps: row.actions, max_steps: 10, reward: want.vts ? 1 : 0, terminated: true, truncated: false }, what);
    assert.equal(row.false_completion, want.claimDone && !want.vts, what);
    // the watch saw the success line the agent claimed on: AS exactly where it claimed done
    assert.equal(row.apparent_success, want.claimDone, `AS: ${what}`);
    assert.ok(Number.isInteger(row.actions) && row.actions! >= 3, `its BrowserGym steps are counted: ${what}`);
    // the server-side truth beside the claim: the target's persisted value is the requested one exactly when VTS
    assert.equal(JSON.stringify(row.persisted!.value) === JSON.stringify(task.target.value), row.vts, what);
    assert.doesNotMatch(log, /Executable doesn't exist|playwright install/, 'no launch looked for a downloaded browser');
    seen.add(row.false_completion);
  }
  assert.deepEqual([...seen].sort(), [false, true], 'the slice holds true completions and false ones');
  assert.match(run.stdout, /agent_by_layer|claimed/);

  // the analysis counts the run like any agent's: its rows pass the row checks, SQL and the
  // recount agree, and agent_by_layer holds it
  const analysed = await reanalyze({ write: false });
  assert.deepEqual(analysed.problems, []);
  const all = analysed.tables.agent_by_layer!.find((r) => r.agent === 'scripted-browsergym' && r.layer === 'all');
  assert.ok(all, JSON.stringify(analysed.tables.agent_by_layer));
  const designedAll = conditions.map((id) => designed(tasks.get(id)!));
  assert.equal(all.n, conditions.length);
  assert.equal(all.claimed_n, designedAll.filter((d) => d.claimDone).length);
  assert.equal(all.vts_n, designedAll.filter((d) => d.vts).length);
  assert.equal(all.fc_n, designedAll.filter((d) => d.claimDone && !d.vts).length);
});

test('an episode cut at its step limit (issue 50 item 4): its own outcome in the row, the limit with it, and BrowserGym\'s reward beside VTS', { timeout: 10 * 60_000 }, async (t) => {
  assert.ok(installed, `the suite's venv is not there (${suitePython}): ${install}`);
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  tree.write(agentFile, agentSource);
  await freeze('test');
  // the scripted agent looks, selects its record and saves, then claims: two steps cannot hold its claim
  const command = `${suitePython} -m browsergym.rstackbench.episode --agent ${agentFile}:ScriptedAgent --max-steps 2`;
  const run = await runScript(tree, 'browsergym/run-browsergym.ts', ['--smoke', '--only', '^cards-baseline-01$', '--agent', command, '--agent-files', agentFile, '--agent-name', 'scripted-cut']);
  assert.equal(run.exitCode, 0, run.stderr);
  // a smoke run of one's own goes to its folder under runs/, laid out like the data root
  const folder = tree.file('runs/run-browsergym-scripted-cut');
  const file = (fs.readdirSync(folder, { recursive: true }) as string[]).find((f) => /layers-agent-scripted-cut-chromium[^/]*\.jsonl$/.test(f));
  assert.ok(file, `a run file under ${folder}: ${run.stdout}`);
  const [row] = readJsonl<LayersRow>(path.join(folder, file), { schema: 'trace' });
  const what = JSON.stringify(row);
  assert.equal(row!.error, null, what);
  assert.deepEqual(row!.claim, { done: false, message: 'no message to the user: the episode ended at its step limit (2 steps)' }, what);
  assert.equal(row!.browsergym!.ended, 'step_limit', what);
  assert.equal(row!.browsergym!.max_steps, 2, what);
  assert.equal(row!.browsergym!.steps, 2, what);
  assert.equal(row!.browsergym!.truncated, true, what);
  // no claim, so the task never rewarded it, whatever the store holds
  assert.equal(row!.browsergym!.reward, 0, what);
  assert.equal(row!.false_completion, false, what);
  assert.match(run.stdout, /cut at its step limit: 1 of 1 episodes \(limit 2 steps, set with --max-steps N in AGENT\)/);
});

test('a registered run of a BrowserGym agent needs a frozen prereg that names it; Firefox is refused', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const command = `${suitePython} -m browsergym.rstackbench.episode --agent ${agentFile}:ScriptedAgent`;
  const registered = await runScript(tree, 'browsergym/run-browsergym.ts', ['--agent', command]);
  assert.equal(registered.exitCode, 3, registered.stderr);
  assert.match(registered.stderr, /no frozen prereg\/agent-\*\.md registers/);
  const firefox = await runScript(tree, 'browsergym/run-browsergym.ts', ['--smoke', '--browser', 'firefox', '--agent', command]);
  assert.equal(firefox.exitCode, 2, firefox.stderr);
  assert.match(firefox.stderr, /BrowserGym drives Chromium only/);
  assert.equal(fs.existsSync(tree.file('data/raw/layers/agent')), false, 'nothing written');
  assert.equal(fs.existsSync(tree.file('data/excluded/layers/agent')), false, 'nothing written');
});
