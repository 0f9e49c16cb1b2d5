"""One episode of one condition, as the harness runs it (python -m browsergym.rstackbench.episode).

    harness (pipeline/browsergym/) ─▶ this process, per condition, with
        RSTACKBENCH_BROWSERGYM_TASK   the task, e.g. rstackbench.cards-baseline-01
        RSTACKBENCH_CONTROL_URL       this episode's control endpoint (control.py)
        RSTACKBENCH_EXP_DIR           where an experiment loop keeps its folder (beside the run)
    ─▶ the agent, unchanged, in the loop its framework runs it in:
        --agent FILE.py:NAME | MODULE:NAME, NAME an object, a class or a factory giving
          a BrowserGym Agent (browsergym.experiments.Agent: obs_preprocessor, get_action, action_set)
            ─▶ BrowserGym's own loop: gym.make, reset, get_action/step until terminated or truncated
          or agent args (AbstractAgentArgs: make_agent, as AgentLab's GenericAgentArgs)
            ─▶ the experiment loop of its framework: AgentLab's ExpArgs for AgentLab's agents,
               else browsergym.experiments' (set_benchmark and prepare first, as a Study does)
    ─▶ POST /result: what the loop ended with (BrowserGym's reward, steps, terminated, truncated),
       kept in the row beside the harness's own VTS
    ─▶ exit 0 when the episode ran to its end (the task told the harness the claim), 1 when the
       agent or the environment raised (the harness records an error row, never a claim).

The agent is given what BrowserGym gives every agent: the goal and the observations. It is never
given the task's name, the condition's layer, severity or faults.
"""

from __future__ import annotations

import argparse
import json
import importlib
import importlib.util
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

import gymnasium as gym

from . import control
from .benchmark import DEFAULT_MAX_STEPS, benchmark
from .task import MAX_STEPS_ENV

TASK_ENV = "RSTACKBENCH_BROWSERGYM_TASK"
EXP_DIR_ENV = "RSTACKBENCH_EXP_DIR"


def load(spec: str) -> Any:
    """FILE.py:NAME or MODULE:NAME ─▶ the object NAME (a class or a factory is called with no arguments)."""
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise SystemExit(f"--agent takes FILE.py:NAME or MODULE:NAME, not {spec!r}")
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise SystemExit(f"--agent {spec}: {where} is not a file")
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[path.stem] = module
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    if not hasattr(module, name):
        raise SystemExit(f"--agent {spec}: {where} has no {name}")
    value = getattr(module, name)
    if isinstance(value, type):
        return value()
    if callable(value) and not hasattr(value, "get_action") and not hasattr(value, "make_agent"):
        return value()
    return value


def run_agent(agent: Any, task: str, env_args: Any) -> None:
    """BrowserGym's own loop, as its README writes it."""
    env = gym.make(
        f"browsergym/{task}",
        max_episode_steps=env_args.max_steps,
        headless=env_args.headless,
        action_mapping=agent.action_set.to_python_code,
    )
    steps, reward, terminated, truncated = 0, 0.0, False, False
    try:
        obs, _info = env.reset(seed=env_args.task_seed)
        while not (terminated or truncated):
            action, _agent_info = agent.get_action(agent.obs_preprocessor(obs))
            obs, reward, terminated, truncated, _info = env.step(action)
            steps += 1
    finally:
        env.close()
    # what BrowserGym gave the loop, for the episode's log and the row
    print(f"rstackbench episode: {steps} steps, reward {float(reward)}, terminated {terminated}, truncated {truncated}", file=sys.stderr)
    report(float(reward), steps, bool(terminated), bool(truncated))


def report(reward: float | None, steps: int | None, terminated: bool | None, truncated: bool | None) -> None:
    """The loop's own account of the episode, for the row (the harness accepts it until the process exits).

    The claim was made and scored before this: an account that cannot be delivered leaves the row
    without it, never the claim void."""
    try:
        control.post("/result", {"reward": reward, "steps": steps, "terminated": terminated, "truncated": truncated})
    except Exception as error:  # noqa: BLE001 - said in the episode's log, the claim stands
        print(f"rstackbench episode: its account did not reach the harness: {error}", file=sys.stderr)


def run_agent_args(agent_args: Any, task: str, env_args: Any, bench: Any) -> None:
    """The agent's own experiment loop: AgentLab's for AgentLab's agents, else BrowserGym's."""
    if type(agent_args).__module__.startswith("agentlab"):
        from agentlab.experiments.loop import EnvArgs, ExpArgs
    else:
        from browsergym.experiments.loop import EnvArgs, ExpArgs
    if hasattr(agent_args, "set_benchmark"):
        agent_args.set_benchmark(bench, demo_mode=False)
    agent_args.prepare()
    try:
        exp = ExpArgs(agent_args=agent_args, env_args=EnvArgs(task_name=task, task_seed=env_args.task_seed, max_steps=env_args.max_steps, headless=env_args.headless))
        exp_root = os.environ.get(EXP_DIR_ENV) or tempfile.mkdtemp(prefix="rstackbench-exp-")
        Path(exp_root).mkdir(parents=True, exist_ok=True)
        exp.prepare(exp_root)
        exp.run()
        if exp.err_msg:
            raise RuntimeError(f"{exp.err_msg}\n{exp.stack_trace or ''}")
        # the loop's summary of the episode (its summary_info.json: cum_reward, n_steps, terminated, truncated)
        summary_file = Path(exp.exp_dir) / "summary_info.json"
        summary = json.loads(summary_file.read_text()) if summary_file.is_file() else {}
        reward = summary.get("cum_reward")
        report(float(reward) if isinstance(reward, (int, float)) else None, summary.get("n_steps"), summary.get("terminated"), summary.get("truncated"))
    finally:
        agent_args.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m browsergym.rstackbench.episode",
        description="Run one BrowserGym episode of the RStackBench condition the harness names (RSTACKBENCH_BROWSERGYM_TASK), with an agent unchanged.",
    )
    parser.add_argument("--agent", required=True, help="FILE.py:NAME or MODULE:NAME: a BrowserGym Agent (object, class or factory) or agent args (AbstractAgentArgs, e.g. AgentLab's GenericAgentArgs)")
    parser.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, help=f"the episode's step limit (default {DEFAULT_MAX_STEPS}); at the limit the claim is: not done")
    args = parser.parse_args(argv)
    task = os.environ.get(TASK_ENV)
    if not task:
        parser.error(f"{TASK_ENV} is not set: the harness runs this (make run-browsergym AGENT=\"...\")")
    if args.max_steps < 1:
        parser.error(f"--max-steps takes a positive number of steps, not {args.max_steps}")
    # the task tells the harness when an episode ended at its limit (task.py), not the agent
    os.environ[MAX_STEPS_ENV] = str(args.max_steps)
    print(f"rstackbench episode: {task}, step limit {args.max_steps} (--max-steps)", file=sys.stderr)

    import browsergym.rstackbench  # registers the tasks

    bench = benchmark(max_steps=args.max_steps)
    env_args = next((e for e in bench.env_args_list if e.task_name == task), None)
    if env_args is None:
        parser.error(f"{task} is not a task of the suite (browsergym/rstackbench.<condition_id>)")
    agent = load(args.agent)
    try:
        if hasattr(agent, "make_agent"):
            run_agent_args(agent, task, env_args, bench)
        elif hasattr(agent, "get_action"):
            run_agent(agent, task, env_args)
        else:
            raise SystemExit(f"--agent {args.agent}: neither a BrowserGym Agent (get_action) nor agent args (make_agent)")
    except SystemExit:
        raise
    except Exception:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
