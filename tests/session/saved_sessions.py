"""Session files as pi writes them, for tests that open a saved session from the command line,
and the project plugin those tests put in a session's folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION_ID = "0198a1b2-0000-7000-8000-0000000000c1"


def write_saved_session(agent_dir: Path, cwd: Path) -> Path:
    """Write a session of `cwd` (one question, one answer) where pi keeps sessions; its path."""
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 3, "id": SESSION_ID,
         "timestamp": "2026-11-27T10:00:00.000Z", "cwd": str(cwd)},
        {"type": "message", "id": "a1b2c3d4", "parentId": None,
         "timestamp": "2026-11-27T10:00:01.000Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "remember plums"}],
                     "timestamp": 1795860001000}},
        {"type": "message", "id": "b2c3d4e5", "parentId": "a1b2c3d4",
         "timestamp": "2026-11-27T10:00:02.000Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "plums noted"}],
                     "api": "openai-completions", "provider": "fake", "model": "fake-model",
                     "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0,
                               "totalTokens": 2, "cost": {"input": 0, "output": 0,
                               "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                     "stopReason": "stop", "timestamp": 1795860002000}},
    ]  # fmt: skip
    folder = agent_dir / "sessions" / "--elsewhere--"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"2026-11-27T10-00-00-000Z_{SESSION_ID}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


PROBE_PLUGIN = """
from pydantic import BaseModel

from pi_core import hookimpl
from pi_core.tools.tool import Tool, ToolResult


class Params(BaseModel):
    pass


class Probe(Tool[Params]):
    name = "probe_WHERE"
    label = name
    description = "A project plugin's tool"
    parameters = Params

    async def execute(self, call_id, params, signal, on_update, ctx):
        return ToolResult.text("WHERE")


@hookimpl
def register_tools(register):
    register(Probe())
"""


def probe_plugin(where: str) -> str:
    """A project plugin's source registering the tool `probe_<where>`, which answers `where`."""
    return PROBE_PLUGIN.replace("WHERE", where)


def resume_saved_session(screen: Any) -> None:
    """In the REPL, `/resume` the session `write_saved_session` wrote for another folder."""
    screen.type("/resume")
    screen.keys("Enter")
    screen.wait_for("Resume Session")
    screen.keys("Tab")  # all folders: the saved session is not of this one
    screen.wait_for("→ remember plums")
    screen.keys("Enter")
