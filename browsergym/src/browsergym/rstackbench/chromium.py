"""Debian's Chromium for every browser BrowserGym launches (never a downloaded one).

BrowserGym launches two Chromiums per episode through its one global Playwright instance: the
environment's (`pw.chromium.launch(..., **pw_chromium_kwargs)`) and the chat window's
(`Chat`: `pw.chromium.launch(headless=..., args=[...])`, which takes no launch arguments of ours,
and so would look for a browser Playwright downloaded). BrowserGym lets the global instance be
set (`browsergym.core._set_global_playwright`); this sets it to the same Playwright with a
`chromium` whose `launch` defaults the executable to Debian's and adds the harness's arguments
(`--no-sandbox` as root, no background networking: pipeline/browser/launch.ts). Everything else
is Playwright's own. Chromium only: BrowserGym drives no other browser.
"""

from __future__ import annotations

import json
import os
from typing import Any

import browsergym.core
import playwright.sync_api

EXECUTABLE_ENV = "RSTACKBENCH_CHROMIUM_EXECUTABLE"
ARGS_ENV = "RSTACKBENCH_CHROMIUM_ARGS"
# outside the harness (which passes its own list from pipeline/browser/launch.ts): the least that runs as root
_FALLBACK_ARGS = ["--no-sandbox", "--disable-gpu"]


def executable() -> str:
    path = os.environ.get(EXECUTABLE_ENV) or "/usr/bin/chromium"
    if not os.path.exists(path):
        raise FileNotFoundError(f"Debian's Chromium is not at {path}: apt-get install -y chromium (make setup does it), or set {EXECUTABLE_ENV}")
    return path


def launch_args() -> list[str]:
    raw = os.environ.get(ARGS_ENV)
    return list(json.loads(raw)) if raw else list(_FALLBACK_ARGS)


class _DebianChromium:
    """Playwright's chromium BrowserType, its launches pointed at Debian's binary."""

    def __init__(self, chromium: playwright.sync_api.BrowserType) -> None:
        self._chromium = chromium

    def launch(self, **kwargs: Any) -> playwright.sync_api.Browser:
        kwargs.setdefault("executable_path", executable())
        ours = launch_args()
        theirs = list(kwargs.get("args") or [])
        kwargs["args"] = ours + [a for a in theirs if a not in ours]
        return self._chromium.launch(**kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)


class _DebianPlaywright:
    """The global Playwright, with its chromium launching Debian's Chromium."""

    def __init__(self, pw: playwright.sync_api.Playwright) -> None:
        self._pw = pw
        self.chromium = _DebianChromium(pw.chromium)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pw, name)


def use_debian_chromium() -> None:
    """Makes BrowserGym's global Playwright launch Debian's Chromium (idempotent).

    A task calls it from its constructor, which BrowserEnv.reset runs before either launch.
    """
    pw = browsergym.core._get_global_playwright()
    if not isinstance(pw, _DebianPlaywright):
        browsergym.core._set_global_playwright(_DebianPlaywright(pw))
