"""Fixtures: an isolated agent dir, and the real `pi --mode rpc` against the fake server."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
sys.path.insert(0, str(FIXTURES))  # helpers shared with the recording script

from rpc_home import PiHome  # noqa: E402

from pi_core.testing import FakeLLMServer  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Keep every test away from the user's ~/.pi."""
    agent = tmp_path / "agent"
    agent.mkdir(exist_ok=True)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("HOME", str(tmp_path))
    return agent


@pytest.fixture
def home(tmp_path: Path, isolated_agent_dir: Path) -> Iterator[PiHome]:
    """The fake server and a home for `pi` processes (closed at the end)."""
    with FakeLLMServer() as server:
        pi_home = PiHome(server, tmp_path, isolated_agent_dir)
        yield pi_home
        for rpc in pi_home.running:
            if rpc.process.poll() is None:
                rpc.process.kill()
                rpc.process.wait(timeout=30)
