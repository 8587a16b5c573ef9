"""Point a `pi` or `pi-claude` child at a test folder of managed settings, never the system one.

The child imports a `sitecustomize` (put first on its PYTHONPATH) that replaces
`pi_plugin_claude.managed.managed_dir` with the folder named in `TEST_CLAUDE_MANAGED_DIR`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MOVE_MANAGED_DIR = """
import os
from pathlib import Path

import pi_plugin_claude.managed as managed

managed.managed_dir = lambda: Path(os.environ["TEST_CLAUDE_MANAGED_DIR"])
"""


def managed_env(folder: Path, env: Mapping[str, str]) -> dict[str, str]:
    """The variables that make a child started with `env` read its managed settings from
    `folder` (a `site` folder is written next to it)."""
    site = folder.parent / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(MOVE_MANAGED_DIR)
    path = os.pathsep.join(filter(None, [str(site), env.get("PYTHONPATH")]))
    return {"PYTHONPATH": path, "TEST_CLAUDE_MANAGED_DIR": str(folder)}


def write_managed(folder: Path, settings: dict[str, Any]) -> Path:
    """Write `folder/managed-settings.json` (creating the folder) and return the folder."""
    folder.mkdir(exist_ok=True)
    (folder / "managed-settings.json").write_text(json.dumps(settings))
    return folder
