"""The harness's control endpoint, as a task of this suite talks to it (pipeline/browsergym/control.ts).

One episode, one base URL (RSTACKBENCH_CONTROL_URL, made by the harness for this condition only):

    POST /setup   {task, browser_version}      -> {start_url, instruction, watch, bindings, surface_held}
    POST /opened  {url}                        -> {}            the harness tells the app the agent begins
    POST /moment  {kind, epoch_ms}             -> {}            the page watch's reports (AS)
    POST /end     {claim, actions}             -> {vts, apparent_success, false_completion}

Requests go to 127.0.0.1 directly: no proxy of the environment is asked.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

CONTROL_URL_ENV = "RSTACKBENCH_CONTROL_URL"

# loopback only: never through an http_proxy of the environment
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ControlError(RuntimeError):
    """The harness refused a request or could not be reached."""


def control_url() -> str:
    url = os.environ.get(CONTROL_URL_ENV, "").rstrip("/")
    if not url:
        raise ControlError(
            f"{CONTROL_URL_ENV} is not set: RStackBench's conditions are served by its harness, which runs "
            "each episode itself (make run-browsergym AGENT=\"...\", docs/score-your-agent.md, "
            "\"From BrowserGym or AgentLab\")"
        )
    return url


def post(path: str, body: dict[str, Any], timeout_s: float = 60.0) -> dict[str, Any]:
    request = urllib.request.Request(
        control_url() + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with _opener.open(request, timeout=timeout_s) as response:
            text = response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:500]
        raise ControlError(f"the harness answered {path} with {error.code}: {detail}") from error
    except urllib.error.URLError as error:
        raise ControlError(f"the harness's control endpoint did not answer {path}: {error.reason}") from error
    return json.loads(text) if text else {}
