"""The project's console scripts (`pi`, `pi-claude`, …) for tests, with or without an activated
virtual environment: the ones installed next to the running interpreter come first."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def scripts_dir() -> Path:
    """The folder of the running interpreter, where its console scripts are installed."""
    # not resolved: a venv's `python` is a symlink to the base interpreter, outside the venv
    return Path(sys.executable).parent


def console_script(name: str) -> str:
    """The console script `name` next to the running interpreter, else the one on PATH."""
    beside = scripts_dir() / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"`{name}` is neither next to {sys.executable} nor on PATH")
    return found


def path_with_scripts(path: str | None = None) -> str:
    """`path` (default: $PATH) with the interpreter's scripts folder first, and only there."""
    folder = str(scripts_dir())
    rest = os.environ.get("PATH", "") if path is None else path
    return os.pathsep.join([folder, *(p for p in rest.split(os.pathsep) if p and p != folder)])
