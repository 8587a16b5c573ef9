"""A real plugin distribution, built from a pyproject.toml and installed with pip, is found."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from textwrap import dedent

import pytest

pytestmark = pytest.mark.slow

PYPROJECT = """
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "pi-plugin-shout"
version = "1.2.3"
dependencies = []

[project.entry-points.pi]
shout = "pi_plugin_shout"

[tool.hatch.build.targets.wheel]
packages = ["src/pi_plugin_shout"]
"""

MODULE = """
from pi_core import hookimpl


@hookimpl
def input(event, ctx):
    return {"action": "transform", "text": event.text.upper()}


@hookimpl
def register_commands(register):
    register("shout", lambda args, ctx: None, description="Shout")
"""

DRIVER = """
import asyncio, json
from pi_core import load_plugins, LoadOptions

manager = load_plugins(".", LoadOptions())
result = asyncio.run(manager.dispatcher.input("quiet please", None, "rpc"))
shout = sorted(name for name, c in manager.registry.commands.items() if c.plugin == "shout")
print(json.dumps({"text": result.text, "commands": shout}))
"""


@pytest.fixture(scope="module")
def installed_target(
    tmp_path_factory: pytest.TempPathFactory, pip_install: Callable[[Path, Path], Path]
) -> Path:
    """Build the distribution and pip-install it into a private target folder."""
    root = tmp_path_factory.mktemp("dist")
    (root / "pyproject.toml").write_text(dedent(PYPROJECT))
    package = root / "src" / "pi_plugin_shout"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(dedent(MODULE))
    return pip_install(root, root / "site")


def env_with(target: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *sys.path])}


def test_pip_installed_plugin_is_listed(pi_bin: str, installed_target: Path, project: Path) -> None:
    result = subprocess.run(
        [pi_bin, "plugins", "--json"],
        cwd=project,
        env=env_with(installed_target),
        capture_output=True,
        text=True,
        timeout=60,
    )
    report = json.loads(result.stdout)
    shout = next(p for p in report["plugins"] if p["name"] == "shout")
    assert shout["origin"] == "installed"
    assert shout["source"] == "pi-plugin-shout 1.2.3 (entry point pi_plugin_shout)"
    assert shout["hooks"] == ["input"]
    assert shout["registered"] == {"commands": ["shout"]}


def test_pip_installed_plugin_hooks_run(installed_target: Path, project: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", DRIVER],
        cwd=project,
        env=env_with(installed_target),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {
        "text": "QUIET PLEASE",
        "commands": ["shout"],
    }


def test_blocking_by_distribution_name(pi_bin: str, installed_target: Path, project: Path) -> None:
    result = subprocess.run(
        [pi_bin, "plugins", "--json",
         "--block-plugin", "pi-plugin-shout"],
        cwd=project,
        env=env_with(installed_target),
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    report = json.loads(result.stdout)
    assert all(p["name"] != "shout" for p in report["plugins"])
