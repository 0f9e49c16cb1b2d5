// One BrowserGym episode of one `layers` condition, as runLayersTrace (pipeline/layers/condition.ts)
// sees it: a Stage, where the start page is opened, and an Agent, whose run is the episode.
//
//   runLayersTrace ─▶ server.load(app) ─▶ stage.open(url): the episode's process starts
//       (python -m browsergym.rstackbench.episode …: BrowserGym's loop, the agent unchanged), told
//       only its control URL and task name ─▶ its task's setup: POST /setup (the start URL, the
//       instruction, the page watch) ─▶ it installs the watch in BrowserGym's context, opens the
//       start page ─▶ POST /opened ─▶ stage.open resolves ─▶ app.agentBegins ─▶ agent.run(): the
//       agent acts; the watch reports through POST /moment ─▶ its claim: POST /end ─▶ agent.run
//       resolves (the agent's return) ─▶ scored at the boundary ─▶ finish(outcome): /end answered
//       with VTS (the task's reward) ─▶ BrowserGym closes; POST /result: what its loop ended with
//       (reward, steps, terminated, truncated) ─▶ the process exits (or is killed)
//
// An episode with no claim ends in the task's teardown with "not done", and /end says why: its step
// limit (`step_limit`: the episode was cut, its own outcome in the row) or a loop that stopped short.
//
// The agent's failures are the row's: a process that exits or hangs, before its page is open (a
// missing venv or module, a bad --agent) or after, is an error row (no claim), scored like every
// outside agent's crash (pipeline/agents/process-agent.ts), and the run goes on (its stop after
// many in a row: pipeline/agents/arm.ts). Only the harness's own refusal (a task or a browser other
// than the run's) fails the attempt, which the run skeleton keeps and retries.
import { randomBytes } from 'node:crypto';
import type { LayersTask } from '../../core/layers.ts';
import { RStackError } from '../../core/errors.ts';
import { isValid } from '../../core/validate.ts';
import { chromiumArgs, executablePath } from '../browser/launch.ts';
import { bindingWatch, watchBindings, type LayersOutcome, type PageMoments, type Stage } from '../layers/condition.ts';
import { startAgentProcess, type AgentExit, type AgentProcess } from '../agents/agent-process.ts';
import type { Agent, AgentResult, Claim } from '../agents/contract.ts';
import type { ControlAnswer, ControlServer, ControlStep } from './control.ts';
import type { LayersRow } from '../../core/contracts.ts';
import { verdictOf } from '../../core/verdict.ts';

/** the episode's own account, as the row keeps it (schemas/trace.schema.json, browsergym) */
export type EpisodeAccount = NonNullable<LayersRow['browsergym']>;

/** Python's Playwright hands the watch's reports over between its own calls (the task pumps them while it waits): room for that */
export const EPISODE_REPORT_GRACE_MS = 500;
/** after its claim, how long the process gets to close BrowserGym's two browsers and exit */
const EXIT_GRACE_MS = 30_000;
/** a claim's message as the row keeps it (schemas/claim.schema.json) */
const MESSAGE_MAX = 2000;

export interface EpisodeOptions {
  control: ControlServer;
  task: LayersTask;
  /** the shell command that runs one episode (the agent's identity) */
  command: string;
  cwd: string;
  /** from the process's start to its claim; then its group is killed and the row is an error row */
  timeoutMs: number;
  /** the process's stdout and stderr */
  logFile: string;
  /** where an experiment loop (AgentLab's, BrowserGym's) keeps its folder */
  expDir: string;
  /** data/tasks/layers.jsonl as the run reads it */
  tasksFile: string;
  /** the version of the run's Debian Chromium: BrowserGym's must be the same browser */
  browserVersion: string;
}

export interface Episode {
  stage: Stage;
  agent: Agent;
  /** answers the claim with the score, waits for the process to end; an error when it failed after its claim, and the episode's account when it gave a claim */
  finish(outcome: LayersOutcome | null): Promise<{ error: string | null; account: EpisodeAccount | null }>;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

const answer = (status: number, body: unknown): ControlAnswer => ({ status, body });
const clip = (s: string) => (s.length > MESSAGE_MAX ? `${s.slice(0, MESSAGE_MAX - 1)}…` : s);

export function browsergymEpisode(o: EpisodeOptions): Episode {
  const token = randomBytes(16).toString('hex');
  const taskName = `rstackbench.${o.task.condition_id}`;
  let phase: 'idle' | 'starting' | 'setup' | 'open' | 'claimed' | 'over' = 'idle';
  let page: { url: string; surfaceHeld: boolean; moments: PageMoments } | null = null;
  let child: AgentProcess | null = null;
  let exit: AgentExit | null = null;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let endReply: ((a: ControlAnswer) => void) | null = null;
  let claim: Claim | null = null;
  let account: EpisodeAccount | null = null;
  const opened = deferred<{ startUrl: string }>();
  const ended = deferred<AgentResult>();
  // stage.open may reject before anyone awaits agent.run
  opened.promise.catch(() => {});

  /** a refusal of the episode's own making: the attempt fails with this, whatever the process does next */
  const refuse = (message: string): ControlAnswer => {
    opened.reject(new RStackError(`${o.task.condition_id}: ${message}`));
    child?.killGroup('SIGTERM');
    return answer(409, { error: message });
  };

  const handle = async (step: ControlStep, body: unknown): Promise<ControlAnswer> => {
    const b = (body ?? {}) as Record<string, unknown>;
    switch (step) {
      case 'setup': {
        if (phase !== 'starting' || !page) return answer(409, { error: `setup after ${phase}` });
        if (b.task !== taskName) return refuse(`this episode is ${taskName}; the task set up ${JSON.stringify(b.task)}`);
        if (b.browser_version !== o.browserVersion) {
          return refuse(`BrowserGym's Chromium is ${JSON.stringify(b.browser_version)}, the run's Debian Chromium ${o.browserVersion}: the episode must run in ${executablePath('chromium')}`);
        }
        phase = 'setup';
        return answer(200, {
          start_url: page.url,
          instruction: o.task.instruction,
          watch: bindingWatch,
          bindings: { success_shown: watchBindings.successShown, revealed: watchBindings.revealed },
          surface_held: page.surfaceHeld,
        });
      }
      case 'opened': {
        if (phase !== 'setup') return answer(409, { error: `opened after ${phase}` });
        phase = 'open';
        opened.resolve({ startUrl: typeof b.url === 'string' ? b.url : page!.url });
        return answer(200, {});
      }
      case 'moment': {
        if (!page || typeof b.epoch_ms !== 'number' || !Number.isFinite(b.epoch_ms)) return answer(400, { error: 'a moment is {kind, epoch_ms}' });
        if (b.kind === 'success_shown') page.moments.successShown(b.epoch_ms);
        else if (b.kind === 'revealed') page.moments.revealed(b.epoch_ms);
        else return answer(400, { error: `unknown moment ${JSON.stringify(b.kind)}` });
        return answer(200, {});
      }
      case 'end': {
        if (phase !== 'open') return answer(409, { error: `a claim after ${phase}` });
        const c = (b.claim ?? null) as { done?: unknown; message?: unknown } | null;
        const given: Claim | null = c && typeof c.done === 'boolean' ? (typeof c.message === 'string' ? { done: c.done, message: clip(c.message) } : { done: c.done }) : null;
        if (!given || !isValid('claim', given)) return answer(400, { error: 'a claim is {done: true|false, message?: "…"}' });
        const actions = Number.isInteger(b.actions) && (b.actions as number) >= 0 ? (b.actions as number) : undefined;
        const endedBy = b.ended === 'claim' || b.ended === 'step_limit' || b.ended === 'stopped' ? b.ended : null;
        if (!endedBy) return answer(400, { error: 'an end says how the episode ended: claim, step_limit or stopped' });
        const maxSteps = Number.isInteger(b.max_steps) && (b.max_steps as number) >= 1 ? (b.max_steps as number) : null;
        account = { ended: endedBy, steps: actions ?? null, max_steps: maxSteps, reward: null, terminated: null, truncated: null };
        phase = 'claimed';
        claim = given;
        clearTimeout(timer);
        ended.resolve({ claim: given, error: null, ...(actions === undefined ? {} : { actions }) });
        return new Promise<ControlAnswer>((resolve) => { endReply = resolve; });
      }
      case 'result': {
        // the loop's own account, after the claim was answered and before the process exits
        if ((phase !== 'claimed' && phase !== 'over') || !account) return answer(409, { error: `a result after ${phase}` });
        const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
        const bool = (v: unknown) => (typeof v === 'boolean' ? v : null);
        account = {
          ...account,
          reward: num(b.reward),
          terminated: bool(b.terminated),
          truncated: bool(b.truncated),
          ...(Number.isInteger(b.steps) && (b.steps as number) >= 0 ? { steps: b.steps as number } : {}),
        };
        return answer(200, {});
      }
    }
  };

  const describe = (e: AgentExit, when: string) =>
    timedOut
      ? `timeout: no claim within ${o.timeoutMs} ms; the episode's process group was killed`
      : e.spawnError
        ? `crash: the command could not start: ${e.spawnError.message}`
        : e.signal
          ? `crash: the episode's process was killed by ${e.signal} ${when} (its log: ${o.logFile})`
          : `crash: the episode's process exited with code ${e.code} ${when} (its log: ${o.logFile})`;

  const stage: Stage = {
    reportGraceMs: EPISODE_REPORT_GRACE_MS,
    open(url, { surfaceHeld, moments }) {
      if (phase !== 'idle') throw new RStackError('an episode opens its page once');
      phase = 'starting';
      page = { url, surfaceHeld, moments };
      const controlUrl = o.control.open(token, handle);
      child = startAgentProcess({
        command: o.command,
        cwd: o.cwd,
        logFile: o.logFile,
        env: {
          RSTACKBENCH_CONTROL_URL: controlUrl,
          RSTACKBENCH_BROWSERGYM_TASK: taskName,
          RSTACKBENCH_TASKS: o.tasksFile,
          RSTACKBENCH_EXP_DIR: o.expDir,
          RSTACKBENCH_CHROMIUM_EXECUTABLE: executablePath('chromium'),
          RSTACKBENCH_CHROMIUM_ARGS: JSON.stringify(chromiumArgs),
        },
      });
      timer = setTimeout(() => { timedOut = true; void child!.stop(); }, o.timeoutMs);
      void child.exited.then((e) => {
        exit = e;
        clearTimeout(timer);
        // before its page was open: the agent never began; the trace goes on to score the untouched
        // store, and the row says why there is no claim (a refusal of our own has rejected open already)
        const early = phase === 'starting' || phase === 'setup';
        if (early) opened.resolve({ startUrl: page!.url });
        if (phase !== 'claimed' && phase !== 'over') ended.resolve({ claim: null, error: describe(e, early ? 'before its start page was open' : "before the agent's claim") });
      });
      return opened.promise;
    },
  };

  const agent: Agent = { name: 'browsergym-episode', run: () => ended.promise };

  return {
    stage,
    agent,
    async finish(outcome) {
      const wasClaimed = phase === 'claimed';
      phase = 'over';
      clearTimeout(timer);
      const reply = endReply as ((a: ControlAnswer) => void) | null;
      if (reply) {
        reply(outcome
          ? answer(200, verdictOf({ apparentSuccess: outcome.apparent_success, vts: outcome.vts, claim: claim ?? null, rule: 'claim-if-kept' }))
          : answer(500, { error: 'the trace could not be scored' }));
      }
      let error: string | null = null;
      if (child) {
        // after its claim BrowserGym closes its browsers; without one there is nothing to wait for
        let grace: NodeJS.Timeout | undefined;
        const graceful = wasClaimed && (await Promise.race([child.exited.then(() => true), new Promise<false>((r) => { grace = setTimeout(() => r(false), EXIT_GRACE_MS); })]));
        clearTimeout(grace);
        if (!graceful) await child.stop();
        else child.killGroup('SIGKILL'); // whatever it left running ends with it
        // the loop raised after the claim (an experiment loop keeps going after the task's end): no claim stands
        const e = exit as AgentExit | null;
        if (wasClaimed && graceful && e && (e.code !== 0 || e.signal)) error = `crash: the episode's process exited with ${e.code ?? e.signal} after the episode ended: the agent or its loop raised, so no claim stands (its log: ${o.logFile})`;
      }
      o.control.close(token);
      return { error, account };
    },
  };
}
