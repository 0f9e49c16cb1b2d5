"""The suite as BrowserGym benchmarks: every condition an EnvArgs, grouped by arm and layer.

BrowserGym (and AgentLab's studies) take a `Benchmark`: its `env_args_list` (one EnvArgs per task)
and a `task_metadata` frame whose columns select subsets (`subset_from_glob("layer", "state")`).
The suite's columns: study, arm, template, layer, severity. Its arm is `agent` (an outside agent
scored by its claim); `rstackbench` holds the 288 conditions, `rstackbench_<layer>` each layer's.
"""

from __future__ import annotations

import pandas as pd
from browsergym.experiments.benchmark import Benchmark, HighLevelActionSetArgs
from browsergym.experiments.loop import EnvArgs

from .conditions import conditions

LAYERS = ("baseline", "access", "perception", "action", "state", "verification")
# per condition: enough for a form of two fields, one save and a look; an agent's prereg may say otherwise
DEFAULT_MAX_STEPS = 10
# BrowserGym's own high-level actions on element ids, the chat (send_msg_to_user) and report_infeasible;
# nav for a reload; one action a step, as BrowserGym's benchmarks set it
ACTION_SET_ARGS = HighLevelActionSetArgs(subsets=("chat", "infeas", "bid", "nav"), multiaction=False, strict=False, retry_with_force=True, demo_mode="off")


def benchmark(max_steps: int = DEFAULT_MAX_STEPS, layer: str | None = None) -> Benchmark:
    """The 288 conditions (or one layer's), one EnvArgs each, in the order of data/tasks/layers.jsonl."""
    chosen = [c for c in conditions() if layer is None or c.layer == layer]
    if not chosen:
        raise ValueError(f"no condition of layer {layer!r}: one of {', '.join(LAYERS)}")
    metadata = pd.DataFrame(
        [{"task_name": c.task_name, "study": "layers", "arm": "agent", "template": c.template, "layer": c.layer, "severity": c.severity} for c in conditions()]
    )
    return Benchmark(
        name="rstackbench" if layer is None else f"rstackbench_{layer}",
        high_level_action_set_args=ACTION_SET_ARGS,
        is_multi_tab=False,
        supports_parallel_seeds=False,
        backends=[],
        env_args_list=[EnvArgs(task_name=c.task_name, task_seed=0, max_steps=max_steps, headless=True) for c in chosen],
        task_metadata=metadata,
    )


def benchmarks() -> dict[str, callable]:
    """By name, lazily, as browsergym.experiments' DEFAULT_BENCHMARKS holds them."""
    out = {"rstackbench": lambda: benchmark()}
    for layer in LAYERS:
        out[f"rstackbench_{layer}"] = lambda layer=layer: benchmark(layer=layer)
    return out
