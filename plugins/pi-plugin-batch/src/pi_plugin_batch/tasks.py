"""The task file: one JSON object per line, checked with pydantic before anything runs."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"


class Task(BaseModel):
    """One task: what to ask, where to run it, and its own limits."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=ID_PATTERN)
    prompt: str | None = None
    prompt_file: str | None = None
    repo: str | None = None
    ref: str | None = None
    workdir: str | None = None
    model: str | None = None
    tools: list[str] | None = None
    settings: dict[str, Any] = Field(default_factory=dict)
    plugins: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    setup: str | None = None
    max_cost: float | None = Field(default=None, gt=0)
    timeout_s: float | None = Field(default=None, gt=0)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_of_each(self) -> Task:
        if (self.prompt is None) == (self.prompt_file is None):
            raise ValueError("give exactly one of prompt and prompt_file")
        if self.repo is not None and self.workdir is not None:
            raise ValueError("give repo (+ ref) or workdir, not both")
        if self.ref is not None and self.repo is None:
            raise ValueError("ref needs repo")
        return self

    def prompt_text(self, base: Path) -> str:
        """Return the prompt, reading `prompt_file` relative to the task file's folder."""
        if self.prompt is not None:
            return self.prompt
        assert self.prompt_file is not None
        return (base / self.prompt_file).read_text()

    def fingerprint(self, base: Path, default_model: str | None) -> str:
        """Hash what decides the task's answer (prompt text, model, tools, settings)."""
        fields = {
            "prompt": self.prompt_text(base),
            "model": self.model or default_model,
            "tools": self.tools,
            "settings": self.settings,
        }
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class LineProblem:
    """A bad line of the task file."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class TaskFileError(Exception):
    """The task file has bad lines; each is named with its line number."""

    def __init__(self, path: Path, problems: list[LineProblem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__("\n".join(f"{path}:{problem}" for problem in problems))


def load_tasks(path: Path) -> list[Task]:
    """Parse every line of `path`; raise TaskFileError listing all bad lines at once."""
    tasks: list[Task] = []
    problems: list[LineProblem] = []
    seen: dict[str, int] = {}
    base = path.parent
    try:
        text = path.read_text()
    except OSError as error:
        raise TaskFileError(path, [LineProblem(0, f"cannot read: {error.strerror}")]) from error
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        problem = _check_line(line, base, seen, number)
        if isinstance(problem, LineProblem):
            problems.append(problem)
        else:
            seen[problem.id] = number
            tasks.append(problem)
    if not tasks and not problems:
        problems.append(LineProblem(0, "no tasks"))
    if problems:
        raise TaskFileError(path, problems)
    return tasks


def _check_line(line: str, base: Path, seen: dict[str, int], number: int) -> Task | LineProblem:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as error:
        return LineProblem(number, f"not JSON: {error.msg} (column {error.colno})")
    if not isinstance(raw, dict):
        return LineProblem(number, "not a JSON object")
    try:
        task = Task.model_validate(raw)
    except ValidationError as error:
        return LineProblem(number, _describe(error))
    if task.id in seen:
        return LineProblem(number, f"duplicate id {task.id!r} (first on line {seen[task.id]})")
    if task.prompt_file is not None and not (base / task.prompt_file).is_file():
        return LineProblem(number, f"prompt_file not found: {task.prompt_file}")
    return task


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"])
        message = str(item["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)
