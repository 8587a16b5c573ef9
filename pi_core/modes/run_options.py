"""What the command line says about a session (a plain dataclass: imported before the core)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class RunOptions:
    """Everything the command line can say about a session."""

    cwd: Path = field(default_factory=Path.cwd)
    provider: str | None = None
    model: str | None = None
    thinking: str | None = None
    api_key: str | None = None
    system_prompt: str | None = None
    append_system_prompt: list[str] = field(default_factory=list)
    continue_session: bool = False
    resume: bool = False
    session: str | None = None
    # the user agreed to go on in `cwd` with a `--session` whose stored folder is gone
    session_in_cwd: bool = False
    fork: str | None = None
    session_dir: str | None = None
    no_session: bool = False
    models: list[str] = field(default_factory=list)
    tools: list[str] | None = None
    no_tools: bool = False
    no_builtin_tools: bool = False
    extensions: list[str] = field(default_factory=list)
    no_extensions: bool = False
    blocked: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    no_skills: bool = False
    prompt_templates: list[str] = field(default_factory=list)
    no_prompt_templates: bool = False
    themes: list[str] = field(default_factory=list)
    no_themes: bool = False
    no_context_files: bool = False
    flag_values: dict[str, Any] = field(default_factory=dict)
