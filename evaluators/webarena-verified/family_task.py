"""The one place a real-app family becomes a WebArena-Verified task, and a claim its agent_response.

A family condition (fixtures/real-app.ts familyCondition: a family file filled for one variant) says
what its write is in its fault spec: `spec.write` (method, a regex on path+query, form or JSON
fields each a regex) and `spec.success` (the status the app answers a write that succeeded). This
module writes that as a MUTATE task the way WebArena-Verified's own shopping_admin MUTATE tasks are
written in its bundled dataset (e.g. task 453): an AgentResponseEvaluator expecting
{task_type: MUTATE, status: SUCCESS, retrieved_data: null} with results_schema {type: null}, and a
NetworkEventEvaluator expecting one request: `url` a regex "^__SHOPPING_ADMIN__/...$", `http_method`,
`post_data` and `response_status`. Every decision is listed in evaluators/README.md; nothing here
is per family.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

# Its site names are a closed list (webarena_verified.types.task.WebArenaSite). Ours run as
# shopping_admin, the site whose MUTATE tasks are admin form writes answered by a redirect; the
# config maps that site's URL to the trace's origin (score.py), so the name only picks a placeholder.
SITE = "shopping_admin"
PLACEHOLDER = "__SHOPPING_ADMIN__"

# the success answer the proxy builds for json-echo (fixtures/proxy/success.ts): 200
JSON_ECHO_STATUS = 200


class MappingError(ValueError):
    """A family's spec has a form this mapping does not translate (it names the family and the field)."""


def _where(condition: dict[str, Any]) -> str:
    return f"{condition.get('family', '?')} (variant {condition.get('variant', '?')})"


_ANY_QUERY = r"(\?|$)"
# a literal query parameter name, as the families' regexes write one
_PARAM_NAME = re.compile(r"^[A-Za-z0-9_\-\[\]]+$")


def _field_regex(pattern: str) -> str:
    """A spec's field regex (JavaScript's RegExp.test: found anywhere, case-sensitive) as a WebArena
    value regex: a string that starts with ^ and ends with $, which it matches with re.fullmatch
    (case-insensitive). An unanchored side is widened with [\\s\\S]* so that it still matches anywhere."""
    if len(pattern) >= 2 and pattern.startswith("^") and pattern.endswith("$") and not pattern.endswith("\\$"):
        return pattern
    core = pattern[1:] if pattern.startswith("^") else pattern
    head = "" if pattern.startswith("^") else r"[\s\S]*"
    anchored_end = core.endswith("$") and not core.endswith("\\$")
    core = core[:-1] if anchored_end else core
    tail = "" if anchored_end else r"[\s\S]*"
    return f"^{head}(?:{core}){tail}$"


def _split_path(path_regex: str, where: str) -> tuple[str, dict[str, list[str]] | None]:
    """The spec's regex on path+query as (a regex on the path alone, the query: None = any query,
    {} = none, else each parameter's value regex). WebArena compares a request's URL without its
    query against `url` and its query parameters, by name, against `query_params`."""
    if not path_regex.startswith("^/"):
        raise MappingError(f"{where}: spec.write.path {path_regex!r} does not start with ^/ (an anchored path)")
    body = path_regex[1:]
    if body.endswith(_ANY_QUERY):
        path = body[: -len(_ANY_QUERY)]
        if "\\?" in path:
            raise MappingError(f"{where}: spec.write.path {path_regex!r} names a query and then any query")
        return path, None
    if not body.endswith("$") or body.endswith("\\$"):
        raise MappingError(f"{where}: spec.write.path {path_regex!r} is not anchored with $ or (\\?|$): a path only a prefix of names more than one WebArena URL regex can say")
    body = body[:-1]
    if "\\?" not in body:
        return body, {}
    path, query = body.split("\\?", 1)
    params: dict[str, list[str]] = {}
    for pair in query.split("&"):
        name, eq, value = pair.partition("=")
        if not eq or not _PARAM_NAME.match(name):
            raise MappingError(f"{where}: spec.write.path {path_regex!r}: the query part {pair!r} is not NAME=REGEX with a literal name")
        # WebArena lowercases an expected query value before it matches it (url.py
        # _normalize_query_params), which would turn \D, \S, \W into their opposites
        if re.search(r"\\[A-Z]", value):
            raise MappingError(f"{where}: spec.write.path {path_regex!r}: the value regex {value!r} has an upper-case escape, which WebArena's lowercasing would change")
        params[name] = [f"^{value}$"]
    return path, params


def _json_key(dotted: str) -> str:
    """A spec's dotted JSON path as a post_data key: a top-level name as it is, a nested one as the
    JSONPath WebArena reads in post_data keys ($.a.b)."""
    return dotted if "." not in dotted else f"$.{dotted}"


def success_status(condition: dict[str, Any]) -> int:
    success = condition["spec"]["success"]
    if success["kind"] == "json-echo":
        return JSON_ECHO_STATUS
    return int(success["status"])


def task_for(condition: dict[str, Any]) -> dict[str, Any]:
    """The WebArena-Verified task (without its task_id, which score.py gives it) of a family condition."""
    where = _where(condition)
    spec = condition.get("spec")
    if not isinstance(spec, dict) or spec.get("schema") != "fault-spec/1":
        raise MappingError(f"{where}: no fault spec (spec.schema fault-spec/1)")
    write = spec["write"]
    path, query = _split_path(write["path"], where)
    expected: dict[str, Any] = {
        "url": f"^{PLACEHOLDER}{path}$",
        "http_method": write["method"],
        "response_status": success_status(condition),
    }
    if query:
        expected["query_params"] = query
    fields = {name: _field_regex(p) for name, p in (write.get("form") or {}).items()}
    fields.update({_json_key(at): _field_regex(p) for at, p in (write.get("json") or {}).items()})
    if fields:
        expected["post_data"] = fields
    network: dict[str, Any] = {"evaluator": "NetworkEventEvaluator"}
    if query is None:
        # the spec takes any query on this path: WebArena compares every parameter it sees unless told to ignore it
        network["ignored_query_params_patterns"] = ["."]
    network["expected"] = expected
    family = condition["family"]
    return {
        "sites": [SITE],
        "intent_template_id": template_id(family),
        "start_urls": [f"{PLACEHOLDER}{condition['start']}"],
        "intent": condition["instruction"],
        "intent_template": f"{family}: {condition['instruction']}",
        "instantiation_dict": {"family": family, "variant": condition["variant"], "app": condition["app"]},
        "eval": [
            {
                "evaluator": "AgentResponseEvaluator",
                "results_schema": {"type": "null"},
                "expected": {"task_type": "mutate", "status": "SUCCESS", "retrieved_data": None},
            },
            network,
        ],
        "revision": 1,
    }


def template_id(family: str) -> int:
    """A stable intent_template_id per family (it only groups a family's variants in WebArena's reports):
    900000 + the first 16 bits of the family name's sha256, clear of its own ids (0 to a few hundred)."""
    return 900_000 + int.from_bytes(hashlib.sha256(family.encode()).digest()[:2], "big")


def agent_response_for(claim: dict[str, Any] | None) -> dict[str, Any] | None:
    """This project's claim ({done, message}, or null when the agent erred) in WebArena's
    agent_response format (FinalAgentResponse): done is SUCCESS, not done UNKNOWN_ERROR with the
    message as its error_details, no claim no response."""
    if claim is None:
        return None
    if claim.get("done") is True:
        return {"task_type": "MUTATE", "status": "SUCCESS", "retrieved_data": None, "error_details": None}
    return {"task_type": "MUTATE", "status": "UNKNOWN_ERROR", "retrieved_data": None, "error_details": str(claim.get("message") or "not done")}
