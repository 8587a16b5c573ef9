"""The start-up header: version, key hints, what was loaded, and every diagnostic."""

from __future__ import annotations

import os
from typing import Any

from rich.console import Group
from rich.padding import Padding
from rich.text import Text

from pi_core._version import __version__
from pi_core.modes.interactive.rendering import untrusted

HINTS = "escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more"


def diagnostics(session: Any) -> list[tuple[str, str]]:
    """(level, message) for broken plugins, plugin conflicts and resource problems."""
    plugins = session.plugins
    found: list[tuple[str, str]] = []
    for error in plugins.errors:
        found.append(
            ("error", f"plugin {error.name} failed to load ({error.source}): {error.error}")
        )
    for note in [*plugins.diagnostics, *plugins.registry.diagnostics]:
        found.append((note.level, f"{note.message}" + (f" ({note.source})" if note.source else "")))
    for note in session.resources.diagnostics:
        found.append(("warning", note.describe()))
    return found


def header(session: Any, quiet: bool, expanded: bool = False, custom: Any = None) -> Any:
    """The header renderable (just the diagnostics when `quietStartup` is on).

    Expanded (Ctrl+O), it lists every key and each loaded resource on its own line. `custom`
    is a plugin's `ctx.ui.set_header` factory, drawn in place of the version and hints.
    """
    parts: list[Any] = []
    if custom is not None:
        parts.append(custom_block(custom, expanded))
    elif not quiet:
        title = Text("pi", style="bold #8abeb7")
        title.append(f" v{__version__}", style="dim")
        parts.append(title)
        if expanded:
            from pi_core.modes.interactive.key_hints import KEY_HINTS

            width = max(len(key) for key, _ in KEY_HINTS)
            for key, what in KEY_HINTS:
                line = Text(key.ljust(width + 2), style="#8abeb7")
                line.append(what, style="dim")
                parts.append(line)
        else:
            parts += [Text(HINTS, style="dim"), Text("Press ctrl+o to show all keys and loaded "
                                                    "resources.", style="dim")]  # fmt: skip
        parts.append(Text(""))
    if not quiet:
        resources = session.resources
        sections = [
            ("Context", [_short(f.path) for f in resources.context_files]),
            ("Skills", [s.name for s in resources.skills]),
            ("Prompts", [f"/{p.name}" for p in resources.prompts]),
            ("Plugins", [p.name for p in session.plugins.plugins]),
        ]
        for label, names in sections:
            if names and expanded:
                parts.append(Text(f"[{label}]", style="#b294bb"))
                parts += [Text(f"  {name}", style="dim") for name in names]
            elif names:
                line = Text(f"[{label}] ", style="#b294bb")
                line.append(", ".join(names), style="dim")
                parts.append(line)
    for level, message in diagnostics(session):
        style = "red" if level == "error" else "yellow"
        parts.append(Text(f"{'Error' if level == 'error' else 'Warning'}: {message}", style=style))
    if getattr(session, "model_fallback_message", None):
        parts.append(Text(f"Warning: {session.model_fallback_message}", style="yellow"))
    if session.model is None:
        from pi_core.ai.guidance import repl_no_models
        from pi_core.modes.local_model import discovery_enabled

        agent_dir = session.plugins.agent_dir
        local = discovery_enabled(session)
        advice = repl_no_models(session.model_registry, agent_dir, local)
        parts.append(Text(advice, style="yellow"))
    return Padding(Group(*parts), (0, 1)) if parts else None


def custom_block(factory: Any, expanded: bool) -> Any:
    """What a plugin's header factory draws: a rich renderable, a string or a list of lines."""
    try:
        drawn = factory({"expanded": expanded})
    except Exception as error:
        return Text(f"Warning: plugin header failed ({type(error).__name__}: {error})",
                    style="yellow")  # fmt: skip
    if isinstance(drawn, list):
        return untrusted([str(line) for line in drawn])
    return untrusted(drawn)


def _short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if path.startswith(home + os.sep) else path
