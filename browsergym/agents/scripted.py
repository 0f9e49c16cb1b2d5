"""A scripted BrowserGym agent: no model, BrowserGym's own actions on element ids, an optimist's rules.

It is a `browsergym.experiments.Agent`: it reads the goal and the accessibility tree BrowserGym
gives every agent (its element ids, `bid`s), and answers one high-level action a step from
BrowserGym's action set (`select_option('12', 'Quiet')`, `fill('14', '…')`, `click('15')`,
`noop(300)`, `send_msg_to_user('…')`, `report_infeasible('…')`). It knows the three instructions
of the `layers` apps by their wording, as a person reading them would, and nothing of a condition:

  1. find the record: the first heading or label whose text *contains* the name the goal gives
     (not an exact match: a decoy whose name starts with the target's comes first); while none
     is on the page yet, or it is but not yet its controls (a page still building it), wait
     (noop), at most WAIT_LOOKS looks in all, then report it infeasible;
  2. set the requested values in that record's controls, then activate its commit control
     (Save change, Save profile; Delete then Confirm delete);
  3. after each activation, read that record's status line: a success text ("Saved",
     "Profile saved", "Deleted …") ─▶ send_msg_to_user: done; else activate again, at most
     MAX_COMMITS activations, then report_infeasible.

It never reads the server-backed summary back: a success line is all it checks, which is what the
`layers` faults test (docs/study-layers.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.experiments.agent import Agent, AgentInfo

# activations of a commit control before it gives up (the Action fault swallows 1 to 3)
MAX_COMMITS = 3
# looks before it gives up on finding the record (each look after noop(WAIT_MS))
WAIT_LOOKS = 6
WAIT_MS = 300

SUCCESS = re.compile(r"^(Saved|Profile saved|Deleted\b)")


@dataclass
class Node:
    role: str
    name: str
    bid: str | None
    depth: int


def nodes_of(axtree: dict) -> list[Node]:
    """The accessibility tree in document order: role, name, BrowserGym id (bid), depth."""
    by_id = {n["nodeId"]: n for n in axtree["nodes"]}
    out: list[Node] = []

    def visit(node_id: str, depth: int) -> None:
        node = by_id.get(node_id)
        if node is None:
            return
        role = (node.get("role") or {}).get("value", "")
        name = str((node.get("name") or {}).get("value", "") or "")
        if not node.get("ignored"):
            out.append(Node(role, name, node.get("browsergym_id"), depth))
        for child in node.get("childIds", []):
            visit(child, depth + 1)

    if axtree["nodes"]:
        visit(axtree["nodes"][0]["nodeId"], 0)
    return out


def text_below(nodes: list[Node], at: int) -> str:
    """The text of node `at` and everything below it."""
    parts = [nodes[at].name]
    for n in nodes[at + 1 :]:
        if n.depth <= nodes[at].depth:
            break
        if n.role in ("StaticText", "text"):
            parts.append(n.name)
    return " ".join(p for p in parts if p).strip()


class ScriptedAgent(Agent):
    """One episode's agent: a small state machine over BrowserGym's observations."""

    action_set = HighLevelActionSet(subsets=["chat", "infeas", "bid", "nav"], strict=False, multiaction=False)

    def __init__(self) -> None:
        self.looks = 0
        self.commits = 0
        self.plan: list[str] | None = None  # the value-setting actions still to send
        self.confirming = False

    def obs_preprocessor(self, obs: dict) -> dict:
        return {"goal": obs["goal"], "nodes": nodes_of(obs["axtree_object"]), "last_action_error": obs["last_action_error"]}

    def get_action(self, obs: dict) -> tuple[str, AgentInfo]:
        action = self._next(obs["goal"], obs["nodes"])
        return action, AgentInfo(think=f"commits {self.commits}, looks {self.looks}")

    def _next(self, goal: str, nodes: list[Node]) -> str:
        if m := re.match(r'In the project "(.+)", set Mode to "(.+)" and save the change\.', goal):
            return self._record(nodes, m.group(1), lambda section: [("combobox", lambda bid: f"select_option({bid!r}, {m.group(2)!r})")], "Save change")
        if m := re.match(r'In account (\S+), set the display name to "(.+)" and the time zone to "(.+)", then save the profile\.', goal):
            return self._record(
                nodes,
                m.group(1),
                lambda section: [("textbox", lambda bid: f"fill({bid!r}, {m.group(2)!r})"), ("combobox", lambda bid: f"select_option({bid!r}, {m.group(3)!r})")],
                "Save profile",
            )
        if m := re.match(r'Delete the record "(.+)"\.', goal):
            return self._delete(nodes, m.group(1))
        return "report_infeasible('I do not understand the task')"

    # ── cards and profile: one section per record, headed by its name ──────────────────────
    def _section(self, nodes: list[Node], name: str) -> tuple[int, int] | None:
        """The first heading that contains `name`, and where its section ends (the next heading of its level or above)."""
        start = next((i for i, n in enumerate(nodes) if n.role == "heading" and name in n.name), None)
        if start is None:
            return None
        end = next((j for j in range(start + 1, len(nodes)) if nodes[j].role == "heading"), len(nodes))
        return start, end

    def _record(self, nodes: list[Node], name: str, fields, commit_label: str) -> str:
        section = self._section(nodes, name)
        if section is None:
            return self._wait("the record is not on the page")
        start, end = section
        inside = nodes[start:end]
        if self.plan is None:
            self.plan = []
            for role, act in fields(inside):
                control = next((n for n in inside if n.role == role and n.bid), None)
                if control is None:
                    # its heading shows, its controls not yet, or not yet with BrowserGym's ids (drawn after
                    # BrowserGym marked the page and before it read the tree): look again, as for a record not shown yet
                    self.plan = None
                    return self._wait("the record has no field to set")
                self.plan.append(act(control.bid))
        if self.plan:
            return self.plan.pop(0)
        if self.commits and self._succeeded(inside):
            return f"send_msg_to_user({f'Done: {name} is saved.'!r})"
        return self._commit(next((n for n in inside if n.role == "button" and n.name == commit_label and n.bid), None))

    # ── modal: a list of records, each with Delete, then a confirmation dialog ───────────────
    def _delete(self, nodes: list[Node], label: str) -> str:
        if self.commits and self._succeeded(nodes):
            return f"send_msg_to_user({f'Done: {label} is deleted.'!r})"
        confirm = next((n for n in nodes if n.role == "button" and n.name == "Confirm delete" and n.bid), None)
        if confirm is not None:
            return self._commit(confirm)
        at = next((i for i, n in enumerate(nodes) if n.role == "listitem" and label in text_below(nodes, i)), None)
        if at is None:
            return self._wait("the record is not on the page") if not self.commits else "report_infeasible('the record could not be deleted')"
        button = next((n for n in nodes[at + 1 :] if n.role == "button" and n.name == "Delete" and n.bid), None)
        if button is None:
            return self._wait("the record has no Delete button")
        return f"click({button.bid!r})"

    # ── shared ──────────────────────────────────────────────────────────────────────────────
    def _succeeded(self, nodes: list[Node]) -> bool:
        return any(n.role == "status" and SUCCESS.match(text_below(nodes, i)) for i, n in enumerate(nodes))

    def _commit(self, control: Node | None) -> str:
        if control is None:
            return "report_infeasible('there is no control to save with')"
        if self.commits >= MAX_COMMITS:
            return f"report_infeasible({f'the change did not save after {self.commits} attempts'!r})"
        self.commits += 1
        return f"click({control.bid!r})"

    def _wait(self, why: str) -> str:
        if self.looks >= WAIT_LOOKS:
            return f"report_infeasible({why!r})"
        self.looks += 1
        return f"noop({WAIT_MS})"
