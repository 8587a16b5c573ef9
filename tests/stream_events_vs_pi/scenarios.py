"""The scripts both agents run in `--mode json` against the loopback fake, to compare the
stream events they print with pi 0.73.1's (`record_pi.py` records pi's; the test runs ours)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream
from tests.fake_home import FakeHome
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
    home = FakeHome.create(root, {"note.txt": b"hello\n", "other.txt": b"hello again\n"})
    with FakeLLMServer() as server:
        settings = {"defaultProvider": provider.name, "defaultModel": provider.model}
        home.configure(models_json(provider, server.base_url), settings)
        server.queue(*answers(key, script))
        done = home.run([*command, *arguments(script)])
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
