"""Issue-29 RPC script for pi 0.73.1 (recorded) and ours: the busy error, `get_commands`'
`sourceInfo`, and where `fork` and `clone` write after `switch_session` (also to a missing file)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream
from tests.cli.rpc_script import Records, RpcProcess, Step


def run_script(command: list[str], root: Path) -> dict[str, Any]:
    """Run the script under `root` and reduce the answers to what must match pi's."""
    agent, cwd, elsewhere = root / "agent", root / "project", root / "elsewhere"
    for folder in (agent, cwd / ".pi" / "prompts", cwd / ".pi" / "skills" / "demo", elsewhere):
        folder.mkdir(parents=True)
    (cwd / ".pi" / "prompts" / "hello.md").write_text("---\ndescription: Say hello\n---\nHello")
    (cwd / ".pi" / "skills" / "demo" / "SKILL.md").write_text(
        "---\nname: demo\ndescription: A demo skill\n---\nDo the demo."
    )
    with FakeLLMServer() as server:
        (agent / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
        (agent / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        held = chat_stream("first answer", pause_after_chunks=1)
        server.queue(held, chat_stream("second answer"))
        env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(agent)}
        env.pop("PI_CODING_AGENT_SESSION_DIR", None)
        process = RpcProcess([*command, "--mode", "rpc"], cwd, env)
        steps = [
            Step({"type": "get_commands"}),
            Step({"type": "prompt", "message": "one"}, then=held.wait_paused),
            Step({"type": "prompt", "message": "two"}, then=held.resume, until="agent_end"),
            Step({"type": "get_state"}),
            Step(lambda records: _switch_to_copy(records, elsewhere)),
            Step({"type": "clone"}),
            Step({"type": "get_state"}),
            Step(lambda records: {"type": "fork", "entryId": _first_user_entry(records)}),
            Step({"type": "get_state"}),
            Step({"type": "switch_session", "sessionPath": str(elsewhere / "missing.jsonl")}),
            Step({"type": "get_state"}),
        ]
        records = process.run(steps)
        process.close()
    responses = [r for r in records if r.get("type") == "response"]
    text = json.dumps(responses).replace(str(root), "<root>")
    reduced: list[dict[str, Any]] = json.loads(text)
    return {
        "responses": [_mask(r) for r in reduced if r["command"] not in ("get_state", "fork")],
        "state_folders": [
            _name_only(r["data"]["sessionFile"]) for r in reduced if r["command"] == "get_state"
        ],
        "files": sorted(_folder(p.relative_to(root).parent) for p in root.rglob("*.jsonl")),
    }


def _switch_to_copy(records: Records, elsewhere: Path) -> dict[str, Any]:
    """Copy the current session into another folder and switch to the copy."""
    state = [r for r in records if r.get("command") == "get_state"][-1]
    source = Path(state["data"]["sessionFile"])
    target = elsewhere / source.name
    target.write_text(source.read_text())
    return {"type": "switch_session", "sessionPath": str(target)}


def _first_user_entry(records: Records) -> str:
    state = [r for r in records if r.get("command") == "get_state"][-1]
    for line in Path(state["data"]["sessionFile"]).read_text().splitlines():
        entry = json.loads(line)
        if entry.get("type") == "message" and entry["message"]["role"] == "user":
            return str(entry["id"])
    raise AssertionError("no user message in the session")


def _mask(response: dict[str, Any]) -> dict[str, Any]:
    """Drop the id, and the commands of installed plugins (this project has no extensions)."""
    response.pop("id", None)
    if response["command"] == "get_commands":
        commands = response["data"]["commands"]
        response["data"]["commands"] = [c for c in commands if c["source"] != "extension"]
    return response


def _folder(relative: Path) -> str:
    parts = ["<cwd>" if p.startswith("--") and p.endswith("--") else p for p in relative.parts]
    return "/".join(parts)


def _name_only(path: str) -> str:
    """The folder and whether it is the named file (new session files have generated names)."""
    return _folder(Path(path) if path.endswith("missing.jsonl") else Path(path).parent)
