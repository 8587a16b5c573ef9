"""Shared fixtures: an isolated agent directory and a plugin manager with nothing loaded."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pi_core.plugins.manager import PluginManager


@pytest.fixture(autouse=True)
def isolated_agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point PI_CODING_AGENT_DIR at an empty folder so no test reads the user's ~/.pi (and the
    cache folder, where `pi --help` keeps plugin flags, into the test's own folder)."""
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    yield agent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder to use as cwd."""
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def manager(project: Path, isolated_agent_dir: Path) -> PluginManager:
    """A plugin manager for `project` with no plugins loaded yet."""
    return PluginManager(project, agent_dir=isolated_agent_dir)


@pytest.fixture(scope="session")
def pi_bin() -> str:
    """The `pi` console script installed next to this interpreter: what a user runs."""
    script = Path(sys.executable).with_name("pi")
    assert script.exists(), f"`pi` is not installed next to {sys.executable}; install the project"
    return str(script)


def pip_install_target(source: Path, target: Path) -> Path:
    """pip-install the distribution at `source` into `target` (offline, no dependencies)."""
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--no-index", "--target", str(target), str(source),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    return target


@pytest.fixture(scope="session")
def pip_install() -> Callable[[Path, Path], Path]:
    """Build and install a distribution folder into a private target folder."""
    return pip_install_target
