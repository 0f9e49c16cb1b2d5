"""One `layers` condition as a BrowserGym task: set up by the harness, scored by the app's store.

    BrowserEnv.reset ─▶ RStackBenchTask() (Debian's Chromium for both launches: chromium.py)
      ─▶ setup(page): POST /setup: the harness has loaded the condition into its fixture server and
         answers the start URL, the instruction and the page watch (pipeline/layers/watch.ts, the
         script every trace of the project runs); the watch is installed in BrowserGym's context
         (bindings + init script, as the harness's own Chromium stage does), the start page is
         opened, and POST /opened: the harness tells the app the agent begins ─▶ goal = instruction
    BrowserEnv.step ─▶ validate(page, chat): reward 0 and not done, until the agent's claim:
         its message to the user (send_msg_to_user: done) or report_infeasible (not done)
         ─▶ POST /end with the claim: the harness scores at the boundary, VTS from the server's
         store, AS from the watch ─▶ reward = VTS (1.0 or 0.0), done
    BrowserEnv.close ─▶ teardown(): an episode that ended without a claim ends here: the claim is
         "not done", and /end says why: its step limit (`step_limit`, the episode's own outcome in
         the row) or a loop that stopped short of it (`stopped`)

The task never reads the store or the page to score: the harness does, as for every agent. The
agent gets the instruction and the page; the condition's layer, severity and faults stay in the
harness (the task's name is the condition id, as BrowserGym names tasks; agents are not given it).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import playwright.sync_api
from browsergym.core.task import AbstractBrowserTask

from . import control
from .chromium import use_debian_chromium

# how long /end may take: the boundary is at most the agent's last save + 100 ms, plus the harness's grace
END_TIMEOUT_S = 120.0
# the episode's step limit, as the episode's process set it (episode.py --max-steps); the task itself is not told
MAX_STEPS_ENV = "RSTACKBENCH_MAX_STEPS"


def max_steps() -> int | None:
    value = os.environ.get(MAX_STEPS_ENV, "")
    return int(value) if value.isdigit() else None


def claim_of(chat_messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The agent's claim, once it made one: its message to the user, or its report of infeasibility.

    The chat opens with BrowserGym's own greeting (role assistant) and the goal (role user); a
    message of the agent's is one after the goal.
    """
    goal_at = next((i for i, m in enumerate(chat_messages) if m["role"] == "user"), None)
    if goal_at is None:
        return None
    for message in reversed(chat_messages[goal_at + 1 :]):
        if message["role"] == "assistant":
            return {"done": True, "message": str(message["message"])}
        if message["role"] == "infeasible":
            return {"done": False, "message": str(message["message"])}
    return None


class RStackBenchTask(AbstractBrowserTask):
    """A condition of RStackBench's `layers` study (registered as browsergym/rstackbench.<condition_id>)."""

    @classmethod
    def get_task_id(cls) -> str:
        return "rstackbench"

    def __init__(self, seed: int, condition_id: str) -> None:
        super().__init__(seed)
        self.condition_id = condition_id
        # the project's viewport (pipeline/layers/condition.ts); no slow motion: the faults' timing is the server's
        self.viewport = {"width": 900, "height": 900}
        self.slow_mo = 0
        self.timeout = 5000
        self._context: playwright.sync_api.BrowserContext | None = None
        self._steps = 0
        self._score: dict[str, Any] | None = None
        self._reported: set[str] = set()
        use_debian_chromium()

    def setup(self, page: playwright.sync_api.Page) -> tuple[str, dict]:
        context = page.context
        setup = control.post(
            "/setup",
            {"task": f"rstackbench.{self.condition_id}", "browser_version": context.browser.version if context.browser else None},
        )
        for kind, binding in setup["bindings"].items():
            context.expose_binding(binding, lambda _source, epoch_ms, kind=kind: self._report(kind, epoch_ms))
        context.add_init_script(script=setup["watch"])
        page.goto(setup["start_url"], wait_until="load")
        # the page fetches its surface, which may land just after load; the Access fault holds it back
        if not setup["surface_held"]:
            page.wait_for_selector("#loading", state="detached", timeout=10_000)
        control.post("/opened", {"url": page.url})
        self._context = context
        return setup["instruction"], {}

    def _report(self, kind: str, epoch_ms: float) -> None:
        # the watch reports on every change while a success line is visible; the score reads the first of each kind
        if kind in self._reported:
            return
        self._reported.add(kind)
        control.post("/moment", {"kind": kind, "epoch_ms": epoch_ms})

    def validate(self, page: playwright.sync_api.Page, chat_messages: list[dict[str, Any]]) -> tuple[float, bool, str, dict]:
        self._steps += 1
        if self._score is not None:
            return self._reward(), True, "", {"rstackbench": self._score}
        claim = claim_of(chat_messages)
        if claim is None:
            return 0.0, False, "", {}
        self._end(claim, "claim")
        return self._reward(), True, "", {"rstackbench": self._score}

    def teardown(self) -> None:
        # the episode's end without a claim (its step limit, or the loop stopped): not done
        if self._context is not None and self._score is None:
            limit = max_steps()
            ended = "step_limit" if limit is not None and self._steps >= limit else "stopped"
            why = f"its step limit ({limit} steps)" if ended == "step_limit" else f"the loop stopped after {self._steps} steps"
            self._end({"done": False, "message": f"no message to the user: the episode ended at {why}"}, ended)

    def _reward(self) -> float:
        return 1.0 if self._score and self._score["vts"] else 0.0

    def _end(self, claim: dict[str, Any], ended: str) -> None:
        """Sends the claim and waits for the score, letting the watch's reports through meanwhile.

        Playwright for Python hands a page's binding calls over only while a Playwright call is under
        way, so the wait is a loop of calls (BrowserGym's own trick: `context.cookies()`).
        """
        self._pump()
        result: dict[str, Any] = {}

        def send() -> None:
            try:
                result["score"] = control.post("/end", {"claim": claim, "actions": self._steps, "ended": ended, "max_steps": max_steps()}, timeout_s=END_TIMEOUT_S)
            except Exception as error:  # handed to the caller below
                result["error"] = error

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        while sender.is_alive():
            self._pump()
            sender.join(0.02)
        if "error" in result:
            raise result["error"]
        self._score = result["score"]

    def _pump(self) -> None:
        try:
            if self._context is not None:
                self._context.cookies()
        except playwright.sync_api.Error:
            time.sleep(0.02)  # the context is gone: nothing more can report
