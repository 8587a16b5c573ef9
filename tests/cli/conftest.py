"""Run the real `pi` command against the fake server, in an isolated home and agent dir."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, console_script


@dataclass
class Cli:
    """A project folder, an agent dir pointing at the fake server, and a way to run `pi`."""

    server: FakeLLMServer
    cwd: Path
    agent_dir: Path
    env: dict[str, str]

    def run(
        self, *args: str, stdin: str | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        """Run `pi args…` and return the finished process."""
        pi = console_script("pi")
        return subprocess.run(
            [pi, *args], cwd=self.cwd, env=self.env, input=stdin, capture_output=True,
            text=True, timeout=timeout,
        )  # fmt: skip

    def sessions(self) -> list[Path]:
        """Every session file written."""
        return sorted(self.agent_dir.glob("sessions/**/*.jsonl"))

    def settings(self, **values: Any) -> None:
        """Write the global settings."""
        (self.agent_dir / "settings.json").write_text(json.dumps(values))


@pytest.fixture
def cli(tmp_path: Path, isolated_agent_dir: Path) -> Iterator[Cli]:
    cwd = tmp_path / "project"
    cwd.mkdir()
    env = {**os.environ, "HOME": str(tmp_path), "PI_CODING_AGENT_DIR": str(isolated_agent_dir)}
    with FakeLLMServer() as server:
        (isolated_agent_dir / "models.json").write_text(
            json.dumps(chat_models_json(server.base_url))
        )
        (isolated_agent_dir / "settings.json").write_text(
            json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model"})
        )
        yield Cli(server, cwd, isolated_agent_dir, env)
