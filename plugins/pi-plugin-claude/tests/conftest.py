"""Fixtures: an isolated home and agent dir, and the real `pi` CLI against the fake server."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "helpers"))

from claude_pi import Pi

from pi_core.testing import FakeLLMServer, chat_models_json


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
