"""Typing `@` in the REPL offers the notes in `~/notes`; a chosen note is sent with the prompt."""

from collections.abc import Callable
from pathlib import Path

from pi_core import hookimpl


def notes_folder() -> Path:
    return Path.home() / "notes"


def complete(query: str) -> list[dict[str, str]]:
    folder = notes_folder()
    names = sorted(p.stem for p in folder.glob("*.md")) if folder.is_dir() else []
    return [
        {"value": f"note:{name}", "label": name, "description": "a note"}
        for name in names
        if query.removeprefix("note:") in name
    ]


def resolve(value: str) -> str | None:
    if not value.startswith("note:"):
        return None  # not ours: an @file, or another plugin's mention
    path = notes_folder() / f"{value.removeprefix('note:')}.md"
    return path.read_text() if path.is_file() else None


@hookimpl
def register_completions(register: Callable[..., None]) -> None:
    register("notes", complete, resolve, description="Notes from ~/notes")
