"""WebArena-Verified's own evaluator, unchanged, over this project's stored traces.

    traces.jsonl ─▶ family_task.task_for (one place) ─▶ its bundled 812-task dataset with shopping_admin
    MUTATE entries replaced by ours (same ids) ─▶ WebArenaVerified(config).evaluate_task(task_id,
    agent_response, network_trace=HAR) ─▶ one verdict line per trace

Input: JSON lines, one per trace: {trace_id, family (fixtures/real-app.ts familyCondition: the family
file filled for its variant), origin (the app's origin as the browser saw it), har_path (HAR 1.2,
as Playwright's recordHar writes it; relative to the input file), and agent_response (WebArena's
format: a dict, a string, or null) or claim (this project's {done, message}, mapped by
family_task.agent_response_for)}.

Output: JSON lines, one per trace, in input order: {trace_id, task_id (the id of the entry it replaced), score,
status, evaluators (each evaluator's own result, as it serialises it), error_msg, and the
provenance: webarena_verified_version, its evaluator checksum, its data checksum}.

Run with evaluators/.venv/bin/python (make evaluators). --help lists the options.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import json
import logging
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from family_task import SITE, MappingError, agent_response_for, task_for  # noqa: E402

PACKAGE = "webarena-verified"
VERSION = "1.2.3"


class ScoreError(Exception):
    """A refusal that names what to fix; exit code 2."""


def check_installed_unchanged() -> str:
    """Every file of the installed package is byte for byte what its wheel shipped (the sha256 of
    each in its dist-info RECORD), so that the evaluator that scores is its own; returns the version."""
    dist = metadata.distribution(PACKAGE)
    if dist.version != VERSION:
        raise ScoreError(f"{PACKAGE} {dist.version} is installed, not {VERSION}: make evaluators")
    checked = 0
    for entry in csv.reader((dist.read_text("RECORD") or "").splitlines()):
        name, digest = entry[0], entry[1] if len(entry) > 1 else ""
        if not name.startswith("webarena_verified/") or not digest.startswith("sha256="):
            continue
        data = Path(dist.locate_file(name)).read_bytes()
        got = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        if got != digest.removeprefix("sha256="):
            raise ScoreError(f"{name} of {PACKAGE} differs from its wheel's RECORD: make evaluators again")
        checked += 1
    if checked == 0:
        raise ScoreError(f"{PACKAGE}'s RECORD lists no files to check")
    return dist.version


def quiet_its_logs() -> None:
    """Its logger writes to stdout when set up and logs every step at INFO: to stderr, warnings only,
    so that stdout carries our JSON lines alone."""
    from webarena_verified.core.utils import logger  # noqa: PLC0415

    logger.handlers.clear()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("[WebArena Verified] [%(levelname)s] %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False


def bundled_dataset() -> list[dict[str, Any]]:
    from webarena_verified.utils import get_package_assets_path  # noqa: PLC0415

    return json.loads((get_package_assets_path() / "dataset/webarena-verified.json").read_text())


def replaceable_ids(dataset: list[dict[str, Any]]) -> list[int]:
    """Its own shopping_admin MUTATE tasks, in the dataset's order: the entries ours take the place of."""
    return [
        t["task_id"]
        for t in dataset
        if t["sites"] == [SITE]
        and any(e["evaluator"] == "AgentResponseEvaluator" and str(e["expected"]["task_type"]).lower() == "mutate" for e in t["eval"])
    ]


def build_dataset(tasks: list[dict[str, Any]], out_file: Path) -> list[tuple[int, int]]:
    """Writes its dataset with the first len(tasks) replaceable entries replaced by ours (each keeps
    the id of the entry it replaces; the other entries are left as they are, so its reader's check
    of exactly 812 tasks holds); returns (our index, task_id) in order."""
    dataset = bundled_dataset()
    ids = replaceable_ids(dataset)
    if len(tasks) > len(ids):
        raise ScoreError(f"{len(tasks)} distinct tasks, but its dataset has only {len(ids)} shopping_admin MUTATE entries to replace: score the traces in smaller files")
    assigned = dict(zip(ids, tasks, strict=False))
    out = [{**assigned[t["task_id"]], "task_id": t["task_id"]} if t["task_id"] in assigned else t for t in dataset]
    out_file.write_text(json.dumps(out, indent=1, ensure_ascii=False))
    return list(enumerate(ids[: len(tasks)]))


def read_traces(path: Path) -> list[dict[str, Any]]:
    traces = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            t = json.loads(line)
        except json.JSONDecodeError as e:
            raise ScoreError(f"{path}:{n}: not JSON: {e}") from e
        missing = [k for k in ("trace_id", "family", "origin", "har_path") if k not in t]
        if missing or ("agent_response" not in t and "claim" not in t):
            raise ScoreError(f"{path}:{n}: needs trace_id, family, origin, har_path and agent_response or claim (missing {', '.join(missing) or 'agent_response/claim'})")
        traces.append(t)
    return traces


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="score.py",
        description="WebArena-Verified 1.2.3's own evaluator, unchanged, over stored traces: each real-app family as a shopping_admin MUTATE task of its dataset (evaluators/README.md)",
    )
    parser.add_argument("traces", type=Path, help="JSON lines: {trace_id, family, origin, har_path, agent_response | claim}")
    parser.add_argument("--out", type=Path, help="write the verdicts here (default: stdout)")
    parser.add_argument("--work-dir", type=Path, help="keep its dataset file here (default: a temporary folder, removed after)")
    parser.add_argument("--tasks-only", action="store_true", help="score nothing: load the mapped tasks through its data reader and print each as it validated it")
    parser.add_argument("--check-direct", action="store_true", help="also call its evaluators directly (EVALUATOR_REGISTRY, TaskEvalContext) and report whether they give the same result (same_as_direct)")
    args = parser.parse_args(argv)

    try:
        version = check_installed_unchanged()
        quiet_its_logs()
        traces = read_traces(args.traces)
        with tempfile.TemporaryDirectory(prefix="webarena-verified-") as tmp:
            work = args.work_dir or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            lines = score(traces, args.traces.parent, work, version, tasks_only=args.tasks_only, check_direct=args.check_direct)
    except (ScoreError, MappingError) as e:
        print(f"score.py: {e}", file=sys.stderr)
        return 2
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def score(traces: list[dict[str, Any]], base: Path, work: Path, version: str, *, tasks_only: bool, check_direct: bool) -> list[dict[str, Any]]:
    from webarena_verified.api import WebArenaVerified  # noqa: PLC0415
    from webarena_verified.types.config import WebArenaVerifiedConfig  # noqa: PLC0415

    # distinct tasks (a variant's traces share one), in first-seen order
    keys: dict[str, int] = {}
    tasks: list[dict[str, Any]] = []
    for t in traces:
        task = task_for(t["family"])
        key = json.dumps(task, sort_keys=True)
        if key not in keys:
            keys[key] = len(tasks)
            tasks.append(task)
    dataset_file = work / "webarena-verified.json"
    ids = dict(build_dataset(tasks, dataset_file))
    task_id_of = {key: ids[i] for key, i in keys.items()}

    facades: dict[str, Any] = {}

    def facade(origin: str) -> Any:
        # its URL placeholder is rendered with the site's active URL: one config per origin
        if origin not in facades:
            config = WebArenaVerifiedConfig(test_data_file=dataset_file, environments={SITE: {"urls": [origin]}})
            if config.test_data_file.resolve() != dataset_file.resolve():
                raise ScoreError(f"its config fell back to {config.test_data_file}, not our dataset {dataset_file}")
            facades[origin] = WebArenaVerified(config=config)  # its reader: 812 tasks, each validated
        return facades[origin]

    out = []
    for t in traces:
        task_id = task_id_of[json.dumps(task_for(t["family"]), sort_keys=True)]
        wa = facade(t["origin"])
        if tasks_only:
            out.append({"trace_id": t["trace_id"], "task_id": task_id, "task": wa.get_task(task_id).model_dump(mode="json")})
            continue
        har = Path(t["har_path"])
        har = har if har.is_absolute() else base / har
        response = t["agent_response"] if "agent_response" in t else agent_response_for(t["claim"])
        result = wa.evaluate_task(task_id=task_id, agent_response=response, network_trace=har)
        dumped = result.model_dump(mode="json")
        line: dict[str, Any] = {
            "trace_id": t["trace_id"],
            "task_id": task_id,
            "score": dumped["score"],
            "status": dumped["status"],
            "evaluators": dumped["evaluators_results"],
            "error_msg": dumped["error_msg"],
            "agent_response": response,
            "webarena_verified_version": version,
            "webarena_verified_evaluator_checksum": dumped["webarena_verified_evaluator_checksum"],
            "webarena_verified_data_checksum": dumped["webarena_verified_data_checksum"],
        }
        if check_direct:
            line["same_as_direct"] = direct(wa, task_id, response, har) == dumped["evaluators_results"]
        out.append(line)
    return out


def direct(wa: Any, task_id: int, response: Any, har: Path) -> list[dict[str, Any]]:
    """Its evaluators called one by one, as its orchestrator calls them, without the facade."""
    from webarena_verified.core.evaluation.evaluators import EVALUATOR_REGISTRY  # noqa: PLC0415
    from webarena_verified.types.eval import TaskEvalContext  # noqa: PLC0415
    from webarena_verified.types.tracing import NetworkTrace  # noqa: PLC0415

    task = wa.get_task(task_id)
    context = TaskEvalContext(task=task, agent_response_raw=response, network_trace=NetworkTrace.from_content(har), config=wa.config)
    return [EVALUATOR_REGISTRY[cfg.evaluator]().evaluate(context=context, config=cfg).model_dump(mode="json") for cfg in task.eval]


if __name__ == "__main__":
    sys.exit(main())
