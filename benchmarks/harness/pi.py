"""Find or install pi 0.73.1 (the TypeScript agent) to measure next to ours."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PI_PACKAGE = "@mariozechner/pi-coding-agent"
PI_VERSION = "0.73.1"


def our_pi() -> str:
    """Our `pi` entry point next to this Python (not a pyenv shim, which adds ~0.2 s per run)."""
    beside = Path(sys.executable).with_name("pi")
    if beside.exists():
        return str(beside)
    found = shutil.which("pi")
    if found is None:
        raise SystemExit("our pi command is not installed (pip install -e .)")
    return found


def install_pi(version: str = PI_VERSION) -> tuple[str, Path]:
    """`npm install` pi into a new temporary folder; return its executable and the folder."""
    prefix = Path(tempfile.mkdtemp(prefix="pi-ref-"))
    print(f"installing {PI_PACKAGE}@{version} into {prefix} …", file=sys.stderr)
    subprocess.run(
        [
            "npm",
            "install",
            "--prefix",
            str(prefix),
            "--no-audit",
            "--no-fund",
            f"{PI_PACKAGE}@{version}",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    executable = prefix / "node_modules" / ".bin" / "pi"
    if not executable.exists():
        raise SystemExit(f"npm install finished but {executable} is missing")
    return str(executable), prefix


def package_dir(executable: str) -> Path | None:
    """The pi-coding-agent package folder that `executable` runs from, if it can be found."""
    resolved = Path(shutil.which(executable) or executable).resolve()
    for folder in resolved.parents:
        manifest = folder / "package.json"
        if manifest.is_file():
            try:
                if json.loads(manifest.read_text()).get("name") == PI_PACKAGE:
                    return folder
            except (OSError, ValueError):
                return None
    return None


def version_of(command: str) -> str:
    """What `command --version` prints (first line), or a short error."""
    try:
        completed = subprocess.run(
            [command, "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, PI_OFFLINE="1"),
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unavailable ({error})"
    return (completed.stdout.strip() or completed.stderr.strip()).splitlines()[0]
