"""The wheel ships the README and docs the system prompt names, and the prompt points there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_changelog_packaging import installed_core_wheel

pytestmark = pytest.mark.slow

PROMPT = """
from pi_core.resources.system_prompt import SystemPromptOptions, build_system_prompt
print(build_system_prompt(SystemPromptOptions(cwd="/w")))
"""


def test_the_installed_prompt_names_shipped_files(tmp_path: Path) -> None:
    installed = installed_core_wheel(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    done = subprocess.run([sys.executable, "-c", PROMPT], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)  # fmt: skip
    package = installed / "pi_core"
    named = re.findall(re.escape(str(package)) + r"/[^\s,()]*[^\s,().:]", done.stdout)
    assert str(package / "README.md") in named and str(package / "docs" / "repl.md") in named
    assert [path for path in named if not Path(path).exists()] == []
