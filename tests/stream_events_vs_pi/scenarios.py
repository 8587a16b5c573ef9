"""The scripts both agents run in `--mode json` against the loopback fake, to compare the
stream events they print with pi 0.73.1's (`record_pi.py` records pi's; the test runs ours)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream
from tests.requests_vs_pi.scenarios import PROVIDERS, anthropic_stream, models_json

PROVIDER_KEYS = ("generic", "anthropic")
"""openai-completions and anthropic-messages, as the request-body comparison configures them."""

SCRIPTS = ("text-tool", "two-tools", "thinking-text-tool")

_NOTE = {"name": "read", "arguments": {"path": "note.txt"}}
_OTHER = {"name": "read", "arguments": {"path": "other.txt"}}


def answers(key: str, script: str) -> list[FakeResponse]:
    """What the fake answers, request by request: the script's turn, then a closing text."""
    text = "" if script == "two-tools" else "Let me look."
    reasoning = "I should read the notes." if script == "thinking-text-tool" else ""
    tools = [_NOTE, _OTHER] if script == "two-tools" else [_NOTE]
    if PROVIDERS[key].api == "anthropic-messages":
        return [anthropic_stream(text, reasoning, *tools), anthropic_stream("They say hello.")]
    calls = [(tool["name"], tool["arguments"]) for tool in tools]
    first = chat_stream(text, reasoning=reasoning, tool_calls=calls, model="test-model")
    return [first, chat_stream("They say hello.", model="test-model")]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    thinking = "high" if script == "thinking-text-tool" else "off"
    return ["--mode", "json", "-p", "--no-session", "--tools", "read",
            "--thinking", thinking, "Read the notes."]  # fmt: skip


def run(command: list[str], key: str, script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments in a fresh home against the fake; return the JSON
    lines it printed."""
    provider = PROVIDERS[key]
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    (cwd / "other.txt").write_text("hello again\n")
    with FakeLLMServer() as server:
        (agent / "models.json").write_text(json.dumps(models_json(provider, server.base_url)))
        settings = {"defaultProvider": provider.name, "defaultModel": provider.model}
        (agent / "settings.json").write_text(json.dumps(settings))
        server.queue(*answers(key, script))
        env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent),
               "PI_OFFLINE": "1", "NO_COLOR": "1"}  # fmt: skip
        for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PI_CACHE_RETENTION"):
            env.pop(name, None)
        done = subprocess.run(
            [*command, *arguments(script)], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
