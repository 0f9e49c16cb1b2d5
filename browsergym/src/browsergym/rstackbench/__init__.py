"""RStackBench's `layers` conditions as a BrowserGym task suite.

Importing it registers every condition as a gym environment, `browsergym/rstackbench.<condition_id>`
(as `import browsergym.miniwob` registers MiniWoB's), and adds the suite's benchmarks to
browsergym.experiments' DEFAULT_BENCHMARKS (`rstackbench`, `rstackbench_<layer>`). A task's reward is
VTS, read by the harness from the app's store at the scoring boundary; the agent's claim (its
message to the user, report_infeasible, or the episode's end) is kept apart from it. The harness
(pipeline/browsergym/, TypeScript) runs each episode and writes its row of arm `agent`:

    make run-browsergym AGENT="browsergym/.venv/bin/python -m browsergym.rstackbench.episode --agent FILE.py:NAME"

docs/score-your-agent.md, "From BrowserGym or AgentLab", says more.
"""

from browsergym.core.registration import register_task
from browsergym.experiments.benchmark import DEFAULT_BENCHMARKS

from .benchmark import benchmark, benchmarks
from .conditions import Condition, conditions
from .task import RStackBenchTask, claim_of
from .tokens import offline_tiktoken

__all__ = ["RStackBenchTask", "Condition", "benchmark", "benchmarks", "claim_of", "conditions"]

offline_tiktoken()

for _condition in conditions():
    register_task(_condition.task_name, RStackBenchTask, task_kwargs={"condition_id": _condition.condition_id})

DEFAULT_BENCHMARKS.update(benchmarks())
