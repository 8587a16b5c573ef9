"""Completion in the editor: `/` commands, `@` project files, Tab paths."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from pi_core.modes.interactive.files import FileIndex, search
from pi_core.terminal_text import sanitize


@dataclass(frozen=True)
class SlashEntry:
    """One `/` command as the menu shows it."""

    name: str
    description: str
    source: str
    complete_arguments: Callable[[str], Any] | None = None


class EditorCompleter(Completer):
    """Chooses the completion by context: slash command, its arguments, `@file`, or a path."""

    def __init__(
        self,
        entries: Callable[[], list[SlashEntry]],
        cwd: Path | Callable[[], str | Path],
        mention_sources: Callable[[], list[Any]] | None = None,
    ) -> None:
        self.entries = entries
        self.mention_sources = mention_sources or list
        # a callable follows the session's folder (it moves when a session of another opens)
        self._cwd_of = cwd if callable(cwd) else (lambda: cwd)
        self._files = FileIndex(Path(self._cwd_of()))

    @property
    def cwd(self) -> Path:
        """Return the folder `@` and Tab complete in (the session's folder now)."""
        return Path(self._cwd_of())

    @property
    def files(self) -> FileIndex:
        """Return the `@` file index of the current folder (a new one when the folder moved)."""
        cwd = self.cwd
        if self._files.root != cwd:
            self._files = FileIndex(cwd)
        return self._files

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """Yield completions for the text before the cursor (a failing source yields none)."""
        try:
            for found in self._complete(document, complete_event):
                yield _shown_clean(found)
        except Exception:
            return

    def _complete(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        if before.startswith("/") and "\n" not in before:
            if " " not in before:
                yield from self._commands(before[1:])
            else:
                yield from self._arguments(before)
            return
        word = before.rsplit(None, 1)[-1] if before and not before[-1].isspace() else ""
        if word.startswith("@"):
            yield from self._mentions(word[1:])
            return
        if complete_event.completion_requested:
            yield from self._paths(word)

    def _commands(self, typed: str) -> Iterable[Completion]:
        from pi_core.fuzzy import fuzzy_filter

        for entry in fuzzy_filter(self.entries(), typed, lambda entry: entry.name):
            meta = f"{entry.description} [{entry.source}]" if entry.description else entry.source
            yield Completion(
                f"/{entry.name} ",
                start_position=-len(typed) - 1,
                display=f"/{entry.name}",
                display_meta=meta,
            )

    def _arguments(self, before: str) -> Iterable[Completion]:
        name, _, argument = before[1:].partition(" ")
        entry = next((e for e in self.entries() if e.name == name), None)
        if entry is None or entry.complete_arguments is None:
            return
        try:
            items = entry.complete_arguments(argument) or []
        except Exception:
            return
        for item in items:
            value = item.get("value", "") if isinstance(item, dict) else str(item)
            label = item.get("label", value) if isinstance(item, dict) else value
            meta = item.get("description", "") if isinstance(item, dict) else ""
            yield Completion(
                str(value), start_position=-len(argument), display=str(label), display_meta=meta
            )

    def _mentions(self, query: str) -> Iterable[Completion]:
        from pi_core.modes.interactive.mentions import mention_entries

        for value, label, meta in mention_entries(self.mention_sources(), query):
            yield Completion(f"@{value} ", start_position=-len(query) - 1, display=label,
                             display_meta=meta)  # fmt: skip
        query = query.removeprefix('"')
        for path in search(self.files.files(), query):
            name = path.rstrip("/").rsplit("/", 1)[-1] + ("/" if path.endswith("/") else "")
            quoted = f'"{path}"' if " " in path else path
            text = f"@{quoted}" + ("" if path.endswith("/") else " ")
            yield Completion(text, start_position=-len(query) - 1, display=name, display_meta=path)

    def _paths(self, word: str) -> Iterable[Completion]:
        expanded = os.path.expanduser(word) if word.startswith("~") else word
        folder, _, prefix = expanded.rpartition("/")
        base = (self.cwd / folder) if folder or expanded.startswith("/") else self.cwd
        if expanded.startswith("/"):
            base = Path(folder or "/")
        try:
            names = sorted(os.listdir(base))
        except OSError:
            return
        for name in names:
            if not name.startswith(prefix) or (name.startswith(".") and not prefix):
                continue
            suffix = "/" if (base / name).is_dir() else ""
            yield Completion(name[len(prefix) :] + suffix, start_position=0, display=name + suffix)


def _shown_clean(found: Completion) -> Completion:
    """The completion with what the menu shows cleaned (file names can hold control characters);
    the text inserted stays exact."""
    display, meta = found.display_text, found.display_meta_text
    if sanitize(display) == display and sanitize(meta) == meta:
        return found
    return Completion(found.text, found.start_position, display=sanitize(display),
                      display_meta=sanitize(meta))  # fmt: skip
