"""The scripted RPC conversation sent to pi 0.73.1 (recorded) and to our `pi` (in the tests)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core.testing import FakeResponse, PipeGate, chat_models_json, chat_stream
from tests.cli.rpc_script import Records, Step

COMPACTION_PLUGIN_PY = """
from pi_core import hookimpl


@hookimpl
def session_before_compact(event):
    prep = event.preparation
    return {"compaction": {"summary": "Summary of the story so far.",
                           "firstKeptEntryId": prep.first_kept_entry_id,
                           "tokensBefore": prep.tokens_before}}
"""

COMPACTION_PLUGIN_JS = """
export default function (pi) {
  pi.on("session_before_compact", async (event) => ({ compaction: {
    summary: "Summary of the story so far.",
    firstKeptEntryId: event.preparation.firstKeptEntryId,
    tokensBefore: event.preparation.tokensBefore,
  }}));
}
"""


GATE = "gate"
"""A FIFO in the project folder: the scripted bash command blocks on it until the steer is in."""


def answers() -> list[FakeResponse]:
    """What the fake server says, in order (the story holds after its first words until the end)."""
    return [
        chat_stream(tool_calls=[("bash", {"command": f"read _ < {GATE}; echo hi"})]),
        chat_stream("Bye."),
        chat_stream("Once upon a time " * 60, piece=6, pause_after_chunks=2),
    ]


def first_fork_entry(records: Records) -> dict[str, Any]:
    """The fork command for the first user message listed by get_fork_messages."""
    listed = [r for r in records if r.get("command") == "get_fork_messages"][-1]
    return {"type": "fork", "entryId": listed["data"]["messages"][0]["entryId"]}


def steps(gate: PipeGate) -> list[Step]:
    """Prompt with a tool call, steer, name, abort a stream, compact, state, messages, fork."""
    return [
        # bash reports an empty update as it starts; steering after it keeps the order fixed
        Step({"type": "prompt", "message": "Run the slow command"}, until="tool_execution_update"),
        Step({"type": "steer", "message": "Also say bye"}, then=gate.open, until="agent_end"),
        Step({"type": "set_session_name", "name": "demo"}),
        Step({"type": "prompt", "message": "Tell a long story"}, until="message_update"),
        Step({"type": "abort"}),
        Step({"type": "compact"}),
        Step({"type": "get_state"}),
        Step({"type": "get_messages"}),
        Step({"type": "get_fork_messages"}),
        Step(first_fork_entry),
        Step({"type": "get_messages"}),
        Step({"type": "get_last_assistant_text"}),
    ]


def prepare(
    root: Path, base_url: str, *, python: bool
) -> tuple[Path, Path, dict[str, str], PipeGate]:
    """Make the project (with its gate), the agent dir (models, settings, compaction plugin);
    return the env and the gate too."""
    agent, cwd = root / "agent", root / "project"
    (agent / "extensions").mkdir(parents=True)
    cwd.mkdir()
    gate = PipeGate(cwd / GATE)
    (agent / "models.json").write_text(json.dumps(chat_models_json(base_url)))
    (agent / "settings.json").write_text(json.dumps({"retry": {"baseDelayMs": 10}}))
    if python:
        (agent / "extensions" / "compact.py").write_text(COMPACTION_PLUGIN_PY)
    else:
        (agent / "extensions" / "compact.js").write_text(COMPACTION_PLUGIN_JS)
    env = {"HOME": str(root), "PI_CODING_AGENT_DIR": str(agent)}
    return agent, cwd, env, gate


def argv(pi: str, root: Path) -> list[str]:
    """The command line both sides run."""
    return [pi, "--mode", "rpc", "--model", "fake/fake-model", "--session-dir",
            str(root / "sessions")]  # fmt: skip
