"""The `layers` conditions this suite registers: data/tasks/layers.jsonl of the repository.

Only what names and groups a task is read here (condition id, template, layer, severity); the
instruction, the start page and the faults come from the harness at setup, as for every agent.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TASKS_ENV = "RSTACKBENCH_TASKS"
# src/browsergym/rstackbench/conditions.py → the repository
_REPOSITORY = Path(__file__).resolve().parents[4]


@dataclass(frozen=True)
class Condition:
    condition_id: str
    template: str
    layer: str
    severity: int

    @property
    def task_name(self) -> str:
        return f"rstackbench.{self.condition_id}"


def tasks_file() -> Path:
    return Path(os.environ.get(TASKS_ENV) or _REPOSITORY / "data" / "tasks" / "layers.jsonl")


@cache
def conditions() -> tuple[Condition, ...]:
    file = tasks_file()
    if not file.exists():
        raise FileNotFoundError(f"{file}: the `layers` conditions are not there (set {TASKS_ENV} to data/tasks/layers.jsonl of an RStackBench checkout)")
    out = []
    for line in file.read_text("utf-8").splitlines():
        if line.strip():
            t = json.loads(line)
            out.append(Condition(t["condition_id"], t["template"], t["layer"], int(t["severity"])))
    return tuple(out)
