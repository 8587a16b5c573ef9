"""`Pi`: the real `pi -p` in a project folder, pointed at the fake server (shared by tests)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_core.testing import FakeLLMServer, FakeResponse, chat_stream, console_script


@dataclass
class Pi:
    """A project folder, a home, and `pi -p` pointed at the fake server."""

    server: FakeLLMServer
    cwd: Path
    home: Path
    agent_dir: Path
    env: dict[str, str]

    def settings(self, **values: Any) -> None:
        """Write pi's global settings (the fake model stays the default)."""
        base = {"defaultProvider": "fake", "defaultModel": "fake-model"}
        (self.agent_dir / "settings.json").write_text(json.dumps({**base, **values}))

    def claude_settings(self, value: dict[str, Any], name: str = "settings.json") -> None:
        """Write the project's `.claude/<name>`."""
        folder = self.cwd / ".claude"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(json.dumps(value))

    def queue(self, *responses: FakeResponse) -> None:
        """Queue the fake model's answers."""
        self.server.queue(*responses)

    def call(self, name: str, **arguments: Any) -> None:
        """Queue one answer calling tool `name`."""
        self.server.queue(chat_stream(tool_calls=[(name, arguments)]))

    def run(self, prompt: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        """Run `pi -p prompt args…`."""
        pi = console_script("pi")
        return subprocess.run(
            [pi, *args, "-p", prompt], cwd=self.cwd, env=self.env, capture_output=True,
            text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def request(self, index: int) -> dict[str, Any]:
        """The JSON body of the `index`th request the model received."""
        body = self.server.requests[index].json()
        assert isinstance(body, dict)
        return body

    def tool_results(self, index: int) -> list[str]:
        """The tool-result texts the `index`th request carried (Chat Completions `tool` role)."""
        results = []
        for message in self.request(index)["messages"]:
            if message.get("role") == "tool":
                content = message["content"]
                if isinstance(content, list):
                    content = "".join(part.get("text", "") for part in content)
                results.append(content)
        return results

    def tool_names(self, index: int = 0) -> list[str]:
        """The tool names the `index`th request offered."""
        return [tool["function"]["name"] for tool in self.request(index).get("tools", [])]
