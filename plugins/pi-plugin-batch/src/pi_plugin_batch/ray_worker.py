"""One attempt on a Ray worker's node: unpack what it needs, run it there, send back its files."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pi_plugin_batch import replay
from pi_plugin_batch.errors import Verdict
from pi_plugin_batch.ray_payload import Payload, localise, unpack
from pi_plugin_batch.runner import AttemptSpec, run_attempt

# The events the driver's progress line shows (the current tool); the rest stay on the node.
RELAYED_EVENTS = {"tool_execution_start", "message_start"}


@dataclass(frozen=True)
class NodeResult:
    """An attempt's record and verdict, and its output files by their path relative to OUT."""

    record: dict[str, Any]
    verdict: Verdict
    files: dict[str, bytes]


def attempt_on_node(
    spec: AttemptSpec,
    payload: Payload,
    relay: Callable[[str, dict[str, Any]], None] | None,
    recording: bytes | None = None,
) -> NodeResult:
    """Run `spec` in a scratch folder of this node and return everything the driver keeps.

    `recording` is the attempt's recording from the driver's `--replay` folder.
    """
    scratch = Path(tempfile.mkdtemp(prefix="pi-batch-"))
    try:
        root = scratch / "root"
        base = unpack(payload, root, scratch / "agent")
        local = replace(
            spec,
            task=localise(spec.task, base, root),
            out=scratch / "out",
            task_base=base,
            user_agent_dir=scratch / "agent",
            keep_work=False,
            replay_from=_replay_folder(scratch, spec, recording),
        )

        def on_event(task_id: str, event: dict[str, Any]) -> None:
            if relay is not None and event.get("type") in RELAYED_EVENTS:
                relay(task_id, {"type": event["type"], "toolName": event.get("toolName")})

        result = asyncio.run(run_attempt(local, on_event))
        record = dict(result.record)
        record["repo"] = spec.task.repo  # as the driver's task file names it
        return NodeResult(record, result.verdict, collect(local.out, spec.name))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def attempt_with_relay(
    spec: AttemptSpec, payload: Payload, relay_actor: Any, recording: bytes | None = None
) -> NodeResult:
    """The Ray task: `attempt_on_node`, its progress events sent to the driver's relay actor."""
    import ray  # only ever called on a Ray worker

    sent: list[Any] = []

    def relay(task_id: str, event: dict[str, Any]) -> None:
        sent[:] = [relay_actor.put.remote(task_id, event)]  # not waited for, but for the last

    result = attempt_on_node(spec, payload, relay, recording)
    if sent:  # an actor runs one caller's calls in order: every event is there when we return
        ray.get(sent[-1])
    return result


def _replay_folder(scratch: Path, spec: AttemptSpec, recording: bytes | None) -> Path | None:
    """A folder on this node holding the attempt's recording as `--replay` expects it."""
    if spec.replay_from is None:
        return None
    folder = scratch / "replay"
    if recording is not None:
        target = replay.recording_path(folder, spec.name)
        target.parent.mkdir(parents=True)
        target.write_bytes(recording)
    return folder


def collect(out: Path, name: str) -> dict[str, bytes]:
    """The attempt's session, artifacts, agent settings and recording, by their path under `out`."""
    wanted = [out / "sessions" / f"{name}.jsonl", out / "agents" / name / "settings.json",
              replay.recording_path(out, name)]  # fmt: skip
    artifacts = out / "artifacts" / name
    if artifacts.is_dir():
        wanted += sorted(p for p in artifacts.iterdir() if p.is_file() and p.name != "state.json")
    return {str(p.relative_to(out)): p.read_bytes() for p in wanted if p.is_file()}
