"""Claude Code's managed (policy) settings: the files an administrator puts in a system folder.

`managed-settings.json` and then `managed-settings.d/*.json` (sorted by name, hidden files left
out) in `/etc/claude-code` (Linux), `/Library/Application Support/ClaudeCode` (macOS) or
`C:\\Program Files\\ClaudeCode` (Windows). They are read whatever `--setting-sources` says and
win over every other source, as in Claude Code.
"""

from __future__ import annotations

import sys
from pathlib import Path


def managed_dir() -> Path:
    """The system folder of managed settings on this platform."""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path("C:\\Program Files\\ClaudeCode")
    return Path("/etc/claude-code")


def managed_files(folder: Path | None = None) -> list[Path]:
    """The managed settings files to read, in order (later ones win for plain keys)."""
    base = folder if folder is not None else managed_dir()
    files = [base / "managed-settings.json"]
    drop_ins = base / "managed-settings.d"
    try:
        names = sorted(
            entry.name
            for entry in drop_ins.iterdir()
            if entry.name.endswith(".json") and not entry.name.startswith(".") and entry.is_file()
        )
    except (FileNotFoundError, NotADirectoryError):  # no drop-in folder: the usual case
        names = []
    except OSError:  # a folder that cannot be listed: reading it fails, and closes the gate
        return [*files, drop_ins]
    return files + [drop_ins / name for name in names]
