// An outside agent run as a process: any language, any browser client.
//
//   harness ─▶ sh -c "<command>"   env RSTACKBENCH_TASK         {"instruction", "start_url"}
//                                      RSTACKBENCH_CDP_URL      http://127.0.0.1:PORT (Chromium)
//                                      RSTACKBENCH_WS_ENDPOINT  ws://… (CDP, or WebDriver BiDi in Firefox)
//           ◀─ last line of stdout: {"done": true} | {"done": false, "message": "…"}  (schemas/claim.schema.json)
//              or WebArena-Verified's {"task_type": …, "status": "SUCCESS" | "NOT_FOUND" | …, "retrieved_data": …}
//              (SUCCESS: done; any other status: not done); either with an optional "usage" it reports
//
// The process gets the task as a user gives it and the browser's endpoints, nothing else of the
// condition. It runs in its own process group, so a timeout ends it and every child it started.
// A timeout, a crash (non-zero exit or a signal) or a last line that is not a claim gives no claim
// and an error saying which; the agent's stderr goes to the file the caller names.
import { isValid } from '../../core/validate.ts';
import type { Agent, AgentResult, AgentSession, Claim } from './contract.ts';
import type { ClaimLine } from '../../core/contracts.ts';
import { KILL_GRACE_MS, startAgentProcess } from './agent-process.ts';

export const DEFAULT_AGENT_TIMEOUT_MS = 60_000;

export interface ProcessAgentOptions {
  /** the shell command, run with /bin/sh -c */
  command: string;
  /** the agent's name in the rows; defaults to the command's first word */
  name?: string;
  timeoutMs?: number;
  /** where the agent's stderr goes, one file per run of the command (its folder is created) */
  stderrPath: (session: AgentSession) => string;
  cwd?: string;
  /** more environment for the command (the task and the browser's endpoints still come last) */
  env?: Record<string, string>;
}

/** The parsed last line of an agent's stdout: its claim and what it reports, or why it is not a claim. */
export function parseClaimLine(stdout: string): { claim: Claim; actions?: number; retries?: number } | { error: string } {
  const lines = stdout.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  const last = lines.at(-1);
  if (last === undefined) return { error: 'no claim: the agent printed nothing on stdout' };
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    return { error: `no claim: the last line of stdout is not JSON: ${clip(last)}` };
  }
  if (!isValid('claim', value)) {
    return { error: `no claim: the last line of stdout is not a claim {"done": true|false, "message"?: "…"} or {"task_type", "status", "retrieved_data"} (schemas/claim.schema.json): ${clip(last)}` };
  }
  const { done: given, status, message, actions, retries, usage } = value as ClaimLine;
  // WebArena-Verified's response: SUCCESS is a claim of done, any other status a claim of not done
  const done = given ?? status === 'SUCCESS';
  if (given !== undefined && status !== undefined && given !== (status === 'SUCCESS')) {
    return { error: `no claim: done ${given} and status ${status} disagree (SUCCESS is done, any other status not done): ${clip(last)}` };
  }
  const claim: Claim = { done, ...(message === undefined ? {} : { message }), ...(status === undefined ? {} : { status }), ...(usage === undefined ? {} : { usage }) };
  return { claim, ...(actions === undefined ? {} : { actions }), ...(retries === undefined ? {} : { retries }) };
}

const clip = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** The environment an outside agent receives: the task as a user gives it, and the browser. */
export function agentEnv(session: AgentSession): Record<string, string> {
  const env: Record<string, string> = {
    RSTACKBENCH_TASK: JSON.stringify({ instruction: session.task.instruction, start_url: session.task.start_url }),
  };
  if (session.endpoints?.cdp_url) env.RSTACKBENCH_CDP_URL = session.endpoints.cdp_url;
  if (session.endpoints?.ws_endpoint) env.RSTACKBENCH_WS_ENDPOINT = session.endpoints.ws_endpoint;
  return env;
}

export function processAgent(options: ProcessAgentOptions): Agent {
  const timeoutMs = options.timeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS;
  const name = options.name ?? options.command.trim().split(/\s+/)[0] ?? 'agent';
  return {
    name,
    async run(session: AgentSession): Promise<AgentResult> {
      if (!session.endpoints?.cdp_url && !session.endpoints?.ws_endpoint) {
        return { claim: null, error: 'no endpoint: this browser was not opened for an outside agent (launchAgentBrowser gives the endpoints)' };
      }
      const stderrFile = options.stderrPath(session);
      const agentProcess = startAgentProcess({
        command: options.command,
        cwd: options.cwd,
        env: { ...options.env, ...agentEnv(session) },
        logFile: stderrFile,
        readStdout: true,
      });
      let timedOut = false;
      let killTimer: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        timedOut = true;
        agentProcess.killGroup('SIGTERM');
        killTimer = setTimeout(() => agentProcess.killGroup('SIGKILL'), KILL_GRACE_MS);
      }, timeoutMs);
      const exit = await agentProcess.exited;
      clearTimeout(timer);
      // whatever the agent left running (a browser driver, a child) ends with it
      agentProcess.killGroup('SIGKILL');
      if (killTimer) clearTimeout(killTimer);
      // stdout closes when the last process holding it is gone; the group was just killed
      await agentProcess.stdoutClosed();
      const stdout = agentProcess.stdout();
      if (exit.spawnError) return { claim: null, error: `crash: the command could not start: ${exit.spawnError.message}` };
      if (timedOut) return { claim: null, error: `timeout: no claim within ${timeoutMs} ms; the agent's process group was killed` };
      if (exit.signal) return { claim: null, error: `crash: the agent was killed by ${exit.signal}` };
      if (exit.code !== 0) return { claim: null, error: `crash: the agent exited with code ${exit.code} (its stderr: ${stderrFile})` };
      const parsed = parseClaimLine(stdout);
      if ('error' in parsed) return { claim: null, error: parsed.error };
      return { claim: parsed.claim, error: null, ...(parsed.actions === undefined ? {} : { actions: parsed.actions }), ...(parsed.retries === undefined ? {} : { retries: parsed.retries }) };
    },
  };
}
