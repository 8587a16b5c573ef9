"""Fixtures: an isolated home and agent dir, the real `pi` and `pi-claude` CLIs against the fake
server, and Anthropic SSE scripts."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

from claude_pi import Pi

from pi_core.testing import FakeLLMServer, FakeResponse, chat_models_json, console_script


@pytest.fixture(autouse=True)
def isolated_agent_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Keep every test away from the user's ~/.pi and ~/.claude."""
    agent = tmp_path_factory.mktemp("agent")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return agent


@pytest.fixture
def pi(tmp_path: Path, isolated_agent_dir: Path) -> Iterator[Pi]:
    cwd = tmp_path / "project"
    cwd.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(isolated_agent_dir)}
    env.pop("CLAUDE_CONFIG_DIR", None)
    with FakeLLMServer() as server:
        (isolated_agent_dir / "models.json").write_text(
            json.dumps(chat_models_json(server.base_url))
        )
        result = Pi(server, cwd, home, isolated_agent_dir, env)
        result.settings()
        yield result


class Script:
    """Builds Anthropic Messages SSE responses: text, tool calls, errors."""

    def __init__(self) -> None:
        self.count = 0

    def _start(self) -> dict[str, Any]:
        self.count += 1
        return {
            "type": "message_start",
            "message": {
                "id": f"msg_fake_{self.count}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1},
            },
        }

    def events(
        self, text: str | list[str] = "", tool: tuple[str, str, dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """The SSE events of one response: text pieces, then at most one tool call."""
        pieces = [text] if isinstance(text, str) else text
        events: list[dict[str, Any]] = [self._start()]
        index = 0
        if any(pieces):
            events.append(
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            for piece in pieces:
                events.append(
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": piece},
                    }
                )
            events.append({"type": "content_block_stop", "index": 0})
            index = 1
        if tool is not None:
            call_id, name, arguments = tool
            events += [
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": call_id, "name": name, "input": {}},
                },
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(arguments)},
                },
                {"type": "content_block_stop", "index": index},
            ]
        events += [
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use" if tool else "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 7},
            },
            {"type": "message_stop"},
        ]
        return events

    def reply(self, text: str | list[str] = "", **kwargs: Any) -> FakeResponse:
        """A text answer."""
        return FakeResponse.sse(self.events(text), named=True, **kwargs)

    def call(
        self, call_id: str, name: str, arguments: dict[str, Any], text: str = ""
    ) -> FakeResponse:
        """An answer that calls one tool."""
        return FakeResponse.sse(self.events(text, (call_id, name, arguments)), named=True)

    @staticmethod
    def error(status: int, message: str) -> FakeResponse:
        """An API error response."""
        body = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        return FakeResponse.json_body(body, status=status)


@pytest.fixture
def script() -> Script:
    """An SSE script builder."""
    return Script()


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """A loopback Anthropic server."""
    with FakeLLMServer() as fake:
        yield fake


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeLLMServer) -> Path:
    """A project folder, a private HOME (so ~/.pi and ~/.claude are the test's) and Claude's env."""
    home = tmp_path / "home"
    folder = tmp_path / "proj"
    home.mkdir()
    folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    for name in (
        "OPENAI_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_MODEL",
        "ANTHROPIC_OAUTH_TOKEN",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "fake")
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def pi_claude() -> str:
    """The installed pi-claude executable."""
    try:
        return console_script("pi-claude")
    except FileNotFoundError:
        pytest.fail("pi-claude is not installed: pip install -e plugins/pi-plugin-claude")
