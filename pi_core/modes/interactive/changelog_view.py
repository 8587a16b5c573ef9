"""`/changelog` and the "What's New" notice after an upgrade, drawn between two rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.padding import Padding
from rich.rule import Rule
from rich.text import Text

from pi_core._version import __version__
from pi_core.modes.interactive.rendering import markdown, render_ansi
from pi_core.modes.interactive.theme import Theme
from pi_core.resources.changelog import changelog_text, newer_than, parse_changelog

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost


def whats_new_block(text: str, theme: Theme, width: int, *, collapsed: bool = False) -> str:
    """The changelog markdown (or, collapsed, one line naming the version) between rules."""
    rule = Rule(style=theme.style("border") or "dim")
    if collapsed:
        latest = parse_changelog(text)
        version = ".".join(map(str, latest[0].version)) if latest else __version__
        body: Any = Text(f"Updated to v{version}. Use /changelog to view full changelog.")
    else:
        title = Text("What's New", style=f"bold {theme.style('accent')}".strip())
        body = Group(title, Text(""), markdown(text))
    return "\n" + render_ansi(Group(rule, Padding(body, (0, 1)), rule), width, color=theme.color)


async def changelog_command(app: CommandHost, args: str) -> None:
    """Print every changelog entry, oldest first (the newest lands next to the editor)."""
    entries = parse_changelog(changelog_text() or "")
    text = "\n\n".join(e.content for e in reversed(entries)) or "No changelog entries found."
    app.transcript.emit(whats_new_block(text, app.theme, app.columns()))


def startup_changelog(session: Any) -> str | None:
    """The entries new since `lastChangelogVersion`, once, for a fresh session (None otherwise).

    The first run only records the version; a resumed session shows nothing."""
    if session.messages:
        return None
    settings = session.settings
    last = settings.get_last_changelog_version()
    if not last:
        settings.set_last_changelog_version(__version__)
        return None
    fresh = newer_than(parse_changelog(changelog_text() or ""), last)
    if not fresh:
        return None
    settings.set_last_changelog_version(__version__)
    return "\n\n".join(entry.content for entry in fresh)
