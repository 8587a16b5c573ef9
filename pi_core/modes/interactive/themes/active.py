"""Which theme is in use: the `theme` setting, first-run detection, and hot reload of its file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from typing import TYPE_CHECKING, Any

from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.themes.builtin import BUILTIN
from pi_core.modes.interactive.themes.loader import (
    ThemeError,
    ThemeSource,
    builtin_source,
    make_theme,
)

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import Themed

OSC11_TIMEOUT = 0.15
RELOAD_POLL_SECONDS = 0.5


def available_themes(session: Any) -> dict[str, ThemeSource]:
    """Built-ins, then custom themes (global, project, plugins); a custom name wins."""
    found = {name: builtin_source(name) for name in BUILTIN}
    for theme in reversed(list(session.resources.themes)):
        found[theme.name] = ThemeSource(theme.name, theme.data, theme.source_path)
    return found


def load_theme(session: Any, name: str, color: bool = True) -> tuple[Theme, list[str]]:
    """The named theme, or dark with a warning when it is unknown or has bad colours."""
    themes = available_themes(session)
    source = themes.get(name)
    if source is None:
        known = ", ".join(sorted(themes))
        return make_theme(builtin_source("dark"), color), [
            f"theme {name!r} not found (known: {known}); using dark"
        ]
    if source.path is not None:  # the file may have changed since start-up
        from pi_core.resources.themes import load_theme_file

        fresh = load_theme_file(source.path)
        if hasattr(fresh, "data"):
            source = ThemeSource(name, fresh.data, source.path)
    try:
        return make_theme(source, color), []
    except ThemeError as error:
        where = source.path or name
        return make_theme(builtin_source("dark"), color), [
            f"theme {where}: {error}; using the default theme"
        ]


def detect_background(timeout: float = OSC11_TIMEOUT) -> str:
    """Ask the terminal for its background (OSC 11): "light" or "dark" (also when it is silent)."""
    reply = _query_osc11(timeout)
    return background_from_reply(reply) if reply else "dark"


def background_from_reply(reply: str) -> str:
    """ "light" when the `rgb:RRRR/GGGG/BBBB` in an OSC 11 reply is bright, else "dark"."""
    marker = reply.find("rgb:")
    if marker < 0:
        return "dark"
    parts = reply[marker + 4 :].split("/")
    try:
        channels = [int(part[:4].rstrip("\x1b\\\x07"), 16) / (16 ** len(part[:4].rstrip(
            "\x1b\\\x07")) - 1) for part in parts[:3]]  # fmt: skip
    except ValueError:
        return "dark"
    if len(channels) != 3:
        return "dark"
    red, green, blue = channels
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "light" if luminance > 0.5 else "dark"


def _query_osc11(timeout: float) -> str:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return ""
    try:
        import select
        import termios
        import tty
    except ImportError:
        return ""
    fd = sys.stdin.fileno()
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return ""
    reply = b""
    try:
        tty.setcbreak(fd)
        os.write(sys.stdout.fileno(), b"\x1b]11;?\x07")
        while True:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                break
            reply += os.read(fd, 64)
            if reply.endswith((b"\x07", b"\x1b\\")):
                break
    except OSError:
        return ""
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return reply.decode("latin-1")


def startup_theme(session: Any, color: bool = True) -> tuple[Theme, list[str]]:
    """The theme to start with; on first run, detect the background and save the choice."""
    name = session.settings.get_theme()
    if not name:
        name = detect_background()
        with contextlib.suppress(Exception):
            session.settings.set_theme(name)
    return load_theme(session, name, color)


def apply_theme(app: Themed, theme: Theme) -> None:
    """Switch the REPL's colours in place (later output and the live region use them)."""
    app.theme.styles = dict(theme.styles)
    app.theme.name = theme.name
    app.invalidate()


def theme_file(session: Any, name: str) -> str | None:
    """The file of a custom theme (None for built-ins)."""
    source = available_themes(session).get(name)
    return source.path if source is not None else None


def _stamp(app: Themed) -> tuple[str | None, float]:
    path = theme_file(app.session, app.theme.name)
    if path is None:
        return (None, 0.0)
    try:
        return (path, os.stat(path).st_mtime)
    except OSError:
        return (path, 0.0)


def start_theme_watch(app: Themed) -> None:
    """Note the active theme file's time now, then poll it in the background."""
    app.spawn(_watch_theme(app, _stamp(app)), "theme reload")


async def _watch_theme(app: Themed, last: tuple[str | None, float]) -> None:
    """Reload the active theme when its file changes; a broken edit keeps the current colours."""
    while True:
        await asyncio.sleep(RELOAD_POLL_SECONDS)
        now = _stamp(app)
        if now[0] is not None and now[0] == last[0] and now[1] != last[1]:
            _reload_from_file(app, now[0])
        last = now


def _reload_from_file(app: Themed, path: str) -> None:
    from pi_core.resources.themes import load_theme_file

    loaded = load_theme_file(path)
    if not hasattr(loaded, "data"):
        app.transcript.status(f"Warning: theme {path}: {loaded.message}; kept", "yellow")
        return
    try:
        theme = make_theme(ThemeSource(app.theme.name, loaded.data, path), app.theme.color)
    except ThemeError as error:
        app.transcript.status(f"Warning: theme {path}: {error}; kept the current one", "yellow")
        return
    apply_theme(app, theme)
    app.transcript.status(f"Theme {app.theme.name} reloaded")
