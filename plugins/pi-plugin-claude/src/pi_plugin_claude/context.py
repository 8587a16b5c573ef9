"""Claude Code's memory files and slash commands, as pi context and prompt templates.

Memory: `~/.claude/CLAUDE.md`, then from the filesystem root down to the cwd each folder's
`CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`. pi itself already reads a folder's
`CLAUDE.md` when the folder has no `AGENTS.md`; those are skipped here so nothing is quoted
twice. Commands: `.claude/commands/*.md` and `~/.claude/commands/*.md` become prompt templates.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pi_plugin_claude.settings import claude_config_dir


@dataclass(frozen=True)
class MemoryFile:
    """One memory file and its text."""

    path: str
    content: str


def _pi_reads(folder: str) -> str | None:
    """The context file pi itself loads from `folder` (its first AGENTS.md / CLAUDE.md)."""
    for name in ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    return None


def _folders_root_to_cwd(cwd: str) -> list[str]:
    folders: list[str] = []
    folder = os.path.abspath(cwd)
    while True:
        folders.insert(0, folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            return folders
        folder = parent


def claude_memory_files(
    cwd: str, home: str | None = None, skip_pi_loaded: bool = True
) -> list[MemoryFile]:
    """The memory files Claude Code would load for `cwd`, in prompt order."""
    candidates = [str(claude_config_dir(home) / "CLAUDE.md")]
    for folder in _folders_root_to_cwd(cwd):
        candidates += [
            os.path.join(folder, "CLAUDE.md"),
            os.path.join(folder, ".claude", "CLAUDE.md"),
            os.path.join(folder, "CLAUDE.local.md"),
        ]
    found: list[MemoryFile] = []
    for path in candidates:
        folder = os.path.dirname(path)
        if skip_pi_loaded and _pi_reads(folder) == path:
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                found.append(MemoryFile(path, handle.read()))
        except (OSError, UnicodeDecodeError):
            continue
    return found


def memory_prompt(files: list[MemoryFile]) -> str:
    """The system-prompt section quoting the memory files (empty without any)."""
    if not files:
        return ""
    parts = ["# Claude Code memory (CLAUDE.md)", ""]
    for memory in files:
        parts += [f"Contents of {memory.path}:", "", memory.content.rstrip(), ""]
    return "\n".join(parts).rstrip()


def command_dirs(cwd: str, home: str | None = None) -> list[str]:
    """The folders of Claude's slash commands that exist (user first, then project)."""
    folders = [str(claude_config_dir(home) / "commands"), os.path.join(cwd, ".claude", "commands")]
    return [folder for folder in folders if os.path.isdir(folder)]
