"""The `mcp` SDK's client side of `pi mcp serve` for this plugin's tests: a project folder (a git
repository) with an isolated agent dir and HOME against the loopback fake model."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from pi_core.testing import FakeLLMServer, chat_models_json, console_script


class Served:
    """A project folder (a git repository), an isolated agent dir and HOME, the fake model."""

    def __init__(self, root: Path, fake: FakeLLMServer) -> None:
        self.fake = fake
        self.cwd = root / "project"
        self.agent_dir = root / "agent"
        self.cwd.mkdir()
        self.agent_dir.mkdir()
        self.models(chat_models_json(fake.base_url))
        (self.agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        subprocess.run(["git", "init", "-q", str(self.cwd)], check=True)
        self.env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(self.agent_dir)}

    def models(self, models: dict[str, Any]) -> None:
        """Write models.json."""
        (self.agent_dir / "models.json").write_text(json.dumps(models))

    @asynccontextmanager
    async def client(self, *flags: str) -> AsyncIterator[ClientSession]:
        """Start `pi mcp serve FLAGS…` as a subprocess and connect the SDK's client to it."""
        pi = console_script("pi")
        params = StdioServerParameters(
            command=pi, args=["mcp", "serve", *flags], env=self.env, cwd=str(self.cwd)
        )
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session

    def request_texts(self, index: int) -> list[str]:
        """The text of every message of the fake's request number `index`, in order."""
        texts = []
        for message in self.fake.requests[index].json()["messages"]:
            content = message.get("content")
            if isinstance(content, list):
                content = " ".join(part.get("text", "") for part in content)
            texts.append(content or "")
        return texts


def text_of(result: Any) -> str:
    """The text blocks of a tool result, one per line."""
    return "\n".join(block.text for block in result.content if block.type == "text")
