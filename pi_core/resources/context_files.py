"""Context files (`AGENTS.md` / `CLAUDE.md`) and the files that replace or extend the system
prompt (`SYSTEM.md`, `APPEND_SYSTEM.md`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from pi_core.messages.base import WireModel
from pi_core.resources.diagnostics import ResourceDiagnostic

CONTEXT_FILE_NAMES = ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD")
SYSTEM_PROMPT_FILE = "SYSTEM.md"
APPEND_SYSTEM_PROMPT_FILE = "APPEND_SYSTEM.md"


class ContextFile(WireModel):
    """A context file's path and its text, as the system prompt quotes it."""

    path: str
    content: str


@dataclass
class ContextFilesResult:
    """Context files in prompt order (global first, then root → cwd) and read problems."""

    files: list[ContextFile] = field(default_factory=list)
    diagnostics: list[ResourceDiagnostic] = field(default_factory=list)


def _read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def load_context_file_from_dir(
    folder: str, diagnostics: list[ResourceDiagnostic]
) -> ContextFile | None:
    """Return the first readable AGENTS.md / CLAUDE.md in a folder (unreadable ones are noted)."""
    for name in CONTEXT_FILE_NAMES:
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        try:
            return ContextFile(path=path, content=_read(path))
        except (OSError, UnicodeDecodeError) as error:
            diagnostics.append(
                ResourceDiagnostic(type="warning", message=f"could not read: {error}", path=path)
            )
    return None


def load_context_files(cwd: str, agent_dir: str) -> ContextFilesResult:
    """Collect the agent dir's context file, then one per folder from `/` down to the cwd."""
    result = ContextFilesResult()
    seen: set[str] = set()
    global_file = load_context_file_from_dir(agent_dir, result.diagnostics)
    if global_file is not None:
        result.files.append(global_file)
        seen.add(global_file.path)
    ancestors: list[ContextFile] = []
    folder = os.path.abspath(cwd)
    while True:
        found = load_context_file_from_dir(folder, result.diagnostics)
        if found is not None and found.path not in seen:
            ancestors.insert(0, found)
            seen.add(found.path)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    result.files += ancestors
    return result


def _discover(cwd: str, agent_dir: str, name: str) -> str | None:
    for path in (os.path.join(cwd, ".pi", name), os.path.join(agent_dir, name)):
        if os.path.exists(path):
            return path
    return None


def discover_system_prompt_file(cwd: str, agent_dir: str) -> str | None:
    """Return `.pi/SYSTEM.md` if present, else the agent dir's `SYSTEM.md`, else None."""
    return _discover(cwd, agent_dir, SYSTEM_PROMPT_FILE)


def discover_append_system_prompt_file(cwd: str, agent_dir: str) -> str | None:
    """Return `.pi/APPEND_SYSTEM.md` if present, else the agent dir's, else None."""
    return _discover(cwd, agent_dir, APPEND_SYSTEM_PROMPT_FILE)


def resolve_prompt_input(
    value: str | None, cwd: str, diagnostics: list[ResourceDiagnostic] | None = None
) -> str | None:
    """Return a file's text when `value` names an existing path (relative to cwd), else `value`."""
    if not value:
        return None
    path = os.path.join(cwd, value)
    if not os.path.exists(path):
        return value
    try:
        return _read(path)
    except (OSError, UnicodeDecodeError) as error:
        if diagnostics is not None:
            diagnostics.append(
                ResourceDiagnostic(
                    type="warning", message=f"could not read prompt file: {error}", path=path
                )
            )
        return value
