"""`/resume` and `pi -r`: pick a session of this folder (or all folders), rename or delete one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit.key_binding import KeyPressEvent

from pi_core.modes.interactive.selectors.picker import Picker, Row, ask_text, choose, run_dialog
from pi_core.session.listing import SessionInfo

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

SORTS = ("threaded", "recent", "relevance")
RESUME_HINT = (
    'type to search  re:<pattern> regex  "phrase" exact  ↑↓ move  enter resume  escape cancel\n'
    "tab scope  ctrl+s sort  ctrl+n named  ctrl+p path  ctrl+r rename  ctrl+d delete"
)


def search(sessions: list[SessionInfo], query: str) -> list[tuple[SessionInfo, int]]:
    """Sessions matching a query with a relevance score (higher is better).

    Words (or "quoted phrases") must all occur in the name or the text; `re:PATTERN` is a
    case-insensitive regex.
    """
    query = query.strip()
    if not query:
        return [(info, 0) for info in sessions]
    found: list[tuple[SessionInfo, int]] = []
    if query.startswith("re:"):
        try:
            pattern = re.compile(query[3:], re.IGNORECASE)
        except re.error:
            return []
        for info in sessions:
            name_hit = bool(info.name and pattern.search(info.name))
            text_hits = len(pattern.findall(info.all_messages_text))
            if name_hit or text_hits:
                found.append((info, (100 if name_hit else 0) + text_hits))
        return found
    words = [phrase or word for phrase, word in re.findall(r'"([^"]+)"|(\S+)', query.lower())]
    for info in sessions:
        name = (info.name or "").lower()
        text = (info.first_message + "\n" + info.all_messages_text).lower()
        if all(word in name or word in text for word in words):
            score = sum(100 for word in words if word in name)
            score += sum(text.count(word) for word in words)
            found.append((info, score))
    return found


def order(found: list[tuple[SessionInfo, int]], sort: str) -> list[tuple[SessionInfo, int]]:
    """Sessions in the chosen order, with their depth (threaded: forks under their parent)."""
    if sort == "relevance":
        ranked = sorted(found, key=lambda pair: (-pair[1], -pair[0].modified.timestamp()))
        return [(info, 0) for info, _ in ranked]
    recent = sorted((info for info, _ in found), key=lambda i: i.modified, reverse=True)
    if sort == "recent":
        return [(info, 0) for info in recent]
    by_path = {str(info.path): info for info in recent}
    children: dict[str, list[SessionInfo]] = {}
    roots: list[SessionInfo] = []
    for info in recent:
        parent = info.parent_session_path
        if parent and parent in by_path and parent != str(info.path):
            children.setdefault(parent, []).append(info)
        else:
            roots.append(info)
    result: list[tuple[SessionInfo, int]] = []
    seen: set[str] = set()

    def walk(info: SessionInfo, depth: int) -> None:
        if str(info.path) in seen:
            return
        seen.add(str(info.path))
        result.append((info, depth))
        for child in children.get(str(info.path), []):
            walk(child, depth + 1)

    for root in roots:
        walk(root, 0)
    return result


def _age(moment: datetime) -> str:
    seconds = max(0, (datetime.now(UTC) - moment).total_seconds())
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m")):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return "now"


@dataclass
class SessionList:
    """The picker's state: scope, sort, the named-only filter, and the sessions loaded."""

    cwd: str
    session_dir: Path | None
    agent_dir: Path
    scope: str = "current"
    sort: str = "threaded"
    named_only: bool = False
    show_path: bool = False
    current_file: str | None = None
    sessions: list[SessionInfo] = field(default_factory=list)

    def load(self) -> None:
        """Read the sessions of the scope from disk."""
        from pi_core.session.listing import list_all_sessions, list_sessions

        if self.scope == "all":
            self.sessions = list_all_sessions(self.agent_dir)
        else:
            self.sessions = list_sessions(self.cwd, self.session_dir)

    def rows(self, query: str) -> list[Row]:
        """Rows for a query: `name or first message · messages · age [· folder]`."""
        pool = [s for s in self.sessions if s.name] if self.named_only else self.sessions
        sort = self.sort if query.strip() or self.sort != "relevance" else "recent"
        rows = []
        for info, depth in order(search(pool, query), sort):
            title = info.name or info.first_message
            title = " ".join(title.split())[:70]
            where = f"  {info.cwd}" if self.scope == "all" or self.show_path else ""
            mark = " (current)" if str(info.path) == self.current_file else ""
            indent = "  " * depth + ("└ " if depth else "")
            text = f"{indent}{title}  · {info.message_count} msgs · {_age(info.modified)}"
            rows.append(Row(info, text + where + mark))
        return rows

    def title(self) -> str:
        """The picker's title, naming the scope."""
        return "Resume Session (All)" if self.scope == "all" else "Resume Session (Current Folder)"

    def status(self) -> str:
        """Scope, sort and filter, as the picker's status line shows them."""
        scope = "all folders" if self.scope == "all" else "this folder"
        named = " · named only" if self.named_only else ""
        return f"scope: {scope} (tab) · sort: {self.sort} (ctrl+s){named}"


def _bind(app: CommandHost, picker: Picker, listing: SessionList) -> None:
    keymap = app.keymap
    kb = picker.key_bindings

    def bind(keys_of: str | tuple[str, ...], handler: Any) -> None:
        if isinstance(keys_of, tuple):
            kb.add(*keys_of, eager=True)(handler)
            return
        for keys in keymap.prompt_toolkit_keys(keys_of):
            kb.add(*keys, eager=True)(handler)

    def toggle_scope(event: KeyPressEvent) -> None:
        listing.scope = "all" if listing.scope == "current" else "current"
        listing.load()
        picker.title = listing.title()
        picker.refresh()

    def toggle_sort(event: KeyPressEvent) -> None:
        listing.sort = SORTS[(SORTS.index(listing.sort) + 1) % len(SORTS)]
        picker.refresh()

    def toggle_named(event: KeyPressEvent) -> None:
        listing.named_only = not listing.named_only
        picker.refresh()

    def toggle_path(event: KeyPressEvent) -> None:
        listing.show_path = not listing.show_path
        picker.refresh()

    def act(action: str) -> Any:
        def handler(event: KeyPressEvent) -> None:
            row = picker.current()
            if row is not None:
                picker.answer((action, row.value))

        return handler

    bind(("tab",), toggle_scope)
    bind("app.session.toggleSort", toggle_sort)
    bind("app.session.toggleNamedFilter", toggle_named)
    bind("app.session.togglePath", toggle_path)
    bind("app.session.rename", act("rename"))
    bind("app.session.delete", act("delete"))


async def pick_session(app: CommandHost, *, exit_on_cancel: bool = False) -> None:
    """The resume picker: Enter resumes, Ctrl+R renames, Ctrl+D deletes (after a Yes)."""
    session = app.session
    folder = session.session_manager.session_dir
    listing = SessionList(str(session.cwd), folder, session.plugins.agent_dir,
                          current_file=session.session_file)  # fmt: skip
    listing.load()
    query = ""
    selected: Any = None
    while True:
        picker = Picker("picker", listing.title(), source=listing.rows, prefill=query)
        picker.status = listing.status
        picker.hint = (
            "type to search (re: for a regex)  ↑↓ move  enter resume  tab scope  "
            "ctrl+s sort  ctrl+n named  ctrl+r rename  ctrl+d delete  escape cancel"
        )
        _bind(app, picker, listing)
        picker.refresh(selected)
        answer = await run_dialog(app, picker)
        query = picker.query
        if answer is None:
            if exit_on_cancel:
                app.exit()
            return
        if isinstance(answer, tuple):
            action, info = answer
            selected = info
            if action == "rename":
                name = await ask_text(app, "Rename session", prefill=info.name or "")
                if name is not None and name.strip():
                    _rename(info, name.strip(), app)
            elif action == "delete":
                await _delete(app, info)
            listing.load()
            continue
        await _resume(app, answer, at_start=exit_on_cancel)
        return


def _rename(info: SessionInfo, name: str, app: CommandHost) -> None:
    if str(info.path) == app.session.session_file:
        app.session.set_session_name(name)
        app.update_title()
        return
    from pi_core.session.manager import SessionManager

    manager = SessionManager.open(info.path, info.path.parent)
    try:
        manager.append_session_info(name)
    finally:
        manager.close()


async def _delete(app: CommandHost, info: SessionInfo) -> None:
    if str(info.path) == app.session.session_file:
        app.transcript.status("Cannot delete the session that is open", "yellow")
        return
    title = info.name or " ".join(info.first_message.split())[:60]
    answer = await choose(app, "Delete session?", ["Yes", "No"], message=title)
    if answer != "Yes":
        return
    try:
        info.path.unlink()
    except OSError as error:
        app.transcript.status(f"Error: cannot delete {info.path}: {error.strerror}", "red")
        return
    app.transcript.status(f"Deleted session {title}")


async def _resume(app: CommandHost, info: SessionInfo, at_start: bool = False) -> None:
    """Switch to the session, asking first when its folder is gone; for `pi -r` (`at_start`)
    the question is pi's start-up one, whose Cancel ends pi."""
    from pi_core.modes.interactive.missing_cwd import START_CHOICES, switch_asking
    from pi_core.plugins.errors import PluginLoadFailed

    choices = START_CHOICES if at_start else ("Yes", "No")
    try:
        result = await switch_asking(app, str(info.path), choices, stay=not at_start)
    except PluginLoadFailed as error:  # `pi -r`: pi stops with its start-up error, exit code 1
        app.exit_with_error(error)
        return
    if result is None and at_start:
        app.exit()
        return
    if result is None or result.get("cancelled"):
        app.transcript.status("Resume cancelled", "yellow")
        return
    from pi_core.modes.interactive.session_shown import show_opened_session

    await show_opened_session(app)  # only this session's conversation on screen, as in pi
    app.update_title()
    where = " in the current folder" if result["in_cwd"] else ""
    app.transcript.status(f"Resumed session {info.name or info.id}{where}")
