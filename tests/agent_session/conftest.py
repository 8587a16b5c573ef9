"""A whole session over the SDK, against the loopback fake server speaking Chat Completions."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pi_core.agent_session.session import AgentSession
from pi_core.plugins.manager import LoadOptions
from pi_core.sdk import create_agent_session
from pi_core.session.manager import SessionManager
from pi_core.testing import FakeLLMServer, chat_models_json


@dataclass
class Harness:
    """The fake server, the folders, and a way to open sessions against them."""

    server: FakeLLMServer
    cwd: Path
    agent_dir: Path
    events: list[Any] = field(default_factory=list)
    _seen: dict[str, asyncio.Event] = field(default_factory=dict)

    async def session(self, *plugins: Any, persist: bool = True, **options: Any) -> AgentSession:
        """Open a session (on disk by default) with these inline plugins."""
        manager = (
            SessionManager.create(str(self.cwd), self.agent_dir / "sessions")
            if persist
            else SessionManager.in_memory(str(self.cwd))
        )
        options.setdefault("session", manager)
        options.setdefault("model", "fake/fake-model")
        options.setdefault("load_options", LoadOptions(extension_paths=[]))
        session = await create_agent_session(
            cwd=self.cwd, agent_dir=self.agent_dir, plugins=plugins, **options
        )
        session.subscribe(self._record)
        return session

    def _record(self, event: Any) -> None:
        self.events.append(event)
        self._seen.setdefault(event.type, asyncio.Event()).set()

    async def seen(self, event_type: str, timeout: float = 30.0) -> None:
        """Wait until a session event of this type has been emitted (at once if it already was)."""
        await asyncio.wait_for(self._seen.setdefault(event_type, asyncio.Event()).wait(), timeout)

    def types(self) -> list[str]:
        """Return the event types seen so far."""
        return [event.type for event in self.events]

    def request(self, index: int) -> dict[str, Any]:
        """Return the JSON body of the index-th request the server got."""
        body: dict[str, Any] = self.server.requests[index].json()
        return body


@pytest.fixture
async def harness(
    tmp_path: Path, isolated_agent_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Harness]:
    cwd = tmp_path / "project"
    cwd.mkdir()
    agent_dir = isolated_agent_dir
    monkeypatch.setenv("HOME", str(tmp_path))
    # the transport's own retries are off: these tests script the agent-level retry
    retry = {"retry": {"baseDelayMs": 10, "provider": {"maxRetries": 0}}}
    (agent_dir / "settings.json").write_text(json.dumps(retry))
    with FakeLLMServer() as server:
        (agent_dir / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
        yield Harness(server, cwd, agent_dir)


def plugin(**hooks: Callable[..., Any]) -> Any:
    """Build an inline plugin object from hook functions."""
    from types import SimpleNamespace

    from pi_core import hookimpl

    return SimpleNamespace(**{name: hookimpl(fn) for name, fn in hooks.items()})
