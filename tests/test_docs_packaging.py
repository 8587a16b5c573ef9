"""The wheel ships the README and docs the system prompt names, and the prompt points there."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROMPT = """
from pi_core.resources.system_prompt import SystemPromptOptions, build_system_prompt
print(build_system_prompt(SystemPromptOptions(cwd="/w")))
"""


def test_the_installed_prompt_names_shipped_files(tmp_path: Path) -> None:
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is not installed")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(tmp_path / "dist")],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("pi_harness-*.whl")
    installed = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(installed)  # what pip puts in site-packages
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run([sys.executable, "-c", PROMPT], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    package = installed / "pi_core"
    named = re.findall(re.escape(str(package)) + r"/[^\s,()]*[^\s,().:]", done.stdout)
    assert str(package / "README.md") in named and str(package / "docs" / "repl.md") in named
    assert [path for path in named if not Path(path).exists()] == []
