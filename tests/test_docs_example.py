"""The example distribution in docs/writing-a-plugin.md installs, is found, and passes its tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "pi-plugin-permission-gate"


@pytest.fixture(scope="module")
def example_site(
    tmp_path_factory: pytest.TempPathFactory, pip_install: Callable[[Path, Path], Path]
) -> Path:
    return pip_install(EXAMPLE, tmp_path_factory.mktemp("example") / "site")


def env_with(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}


def test_example_is_listed_by_pi_plugins(pi_bin: str, example_site: Path, project: Path) -> None:
    result = subprocess.run(
        [pi_bin, "plugins", "--json"],
        cwd=project,
        env=env_with(example_site),
        capture_output=True,
        text=True,
        timeout=60,
    )
    report = json.loads(result.stdout)
    gate = next(p for p in report["plugins"] if p["name"] == "permission_gate")
    assert gate["source"].startswith("pi-plugin-permission-gate 0.1.0")
    assert gate["hooks"] == ["tool_call"]
    assert gate["registered"] == {"commands": ["gate"]}


def test_example_own_tests_pass(example_site: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")],
        cwd=tmp_path,
        env=env_with(example_site),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout
