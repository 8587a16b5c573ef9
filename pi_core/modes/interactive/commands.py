"""The REPL's built-in slash commands (`/new`, `/name`, `/session`, `/compact`, `/copy`, ...)."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pi_core.builtin_commands import BUILTIN_COMMAND_NAMES
from pi_core.modes.interactive.changelog_view import changelog_command
from pi_core.modes.interactive.completion import SlashEntry
from pi_core.modes.interactive.export_commands import export_command, import_command, share_command
from pi_core.modes.interactive.host import CommandHost
from pi_core.modes.interactive.login import LOGIN_HELP, LOGOUT_HELP
from pi_core.modes.interactive.reload_command import reload_command
from pi_core.modes.interactive.ui_commands import (
    Handler,
    hotkeys_command,
    login_command,
    logout_command,
    model_command,
    resume_command,
    scoped_models_command,
    settings_command,
    tree_command,
)


@dataclass(frozen=True)
class Builtin:
    """A built-in command."""

    name: str
    description: str
    handler: Handler


async def _new(app: CommandHost, args: str) -> None:
    result = await app.session.new_session()
    if result.get("cancelled"):
        app.transcript.status("New session cancelled")
        return
    from pi_core.modes.interactive.session_shown import show_new_session

    await show_new_session(app)  # the old conversation leaves the screen, as in pi
    app.transcript.status("✓ New session started", "green")


async def _name(app: CommandHost, args: str) -> None:
    name = args.strip()
    if not name:
        current = app.session.session_name
        app.transcript.status(f"Session name: {current}" if current else "Usage: /name <name>")
        return
    app.session.set_session_name(name)
    app.update_title()
    app.transcript.status(f"Session name set: {name}")


async def _session(app: CommandHost, args: str) -> None:
    stats = app.session.get_session_stats()
    tokens = stats["tokens"]
    lines = [
        "Session Info",
        f"  Name: {app.session.session_name or '-'}",
        f"  File: {stats['sessionFile'] or '(not saved)'}",
        f"  ID: {stats['sessionId']}",
        "Messages",
        f"  User: {stats['userMessages']}",
        f"  Assistant: {stats['assistantMessages']}",
        f"  Tool Calls: {stats['toolCalls']}",
        f"  Tool Results: {stats['toolResults']}",
        f"  Total: {stats['totalMessages']}",
        "Tokens",
        f"  Input: {tokens['input']:,}",
        f"  Output: {tokens['output']:,}",
        f"  Cache Read: {tokens['cacheRead']:,}",
        f"  Cache Write: {tokens['cacheWrite']:,}",
        f"  Total: {tokens['total']:,}",
    ]
    if stats["cost"] > 0:
        lines.append(f"Cost: ${stats['cost']:.4f}")
    app.transcript.status("\n".join(lines), "")


async def _compact(app: CommandHost, args: str) -> None:
    if len(app.session.messages) < 2:
        app.transcript.status("Nothing to compact (no messages yet)", "yellow")
        return
    app.state.working = "Compacting context... (escape to cancel)"
    try:
        await app.session.compact(args.strip() or None)
    except Exception:
        pass  # a manual compaction reports every failure in its compaction_end, shown already
    finally:
        app.state.working = None


async def _copy(app: CommandHost, args: str) -> None:
    text = app.session.get_last_assistant_text()
    if not text:
        app.transcript.status("No agent messages to copy yet.", "red")
        return
    if not copy_to_clipboard(text, app.write_raw):
        app.transcript.status("Copied last agent message to clipboard (OSC 52)")
        return
    app.transcript.status("Copied last agent message to clipboard")


def copy_to_clipboard(text: str, write_raw: Callable[[str], None]) -> bool:
    """Copy with the first clipboard tool found; else send OSC 52 and return False."""
    candidates = [["wl-copy"], ["xclip", "-selection", "clipboard"],
                  ["xsel", "--clipboard", "--input"], ["pbcopy"], ["clip"]]  # fmt: skip
    for command in candidates:
        if shutil.which(command[0]) is None:
            continue
        if command[0] in ("wl-copy",) and not os.environ.get("WAYLAND_DISPLAY"):
            continue
        if command[0] in ("xclip", "xsel") and not os.environ.get("DISPLAY"):
            continue
        try:
            subprocess.run(command, input=text.encode(), check=True, timeout=5)
            return True
        except (OSError, subprocess.SubprocessError):
            continue
    write_raw("\x1b]52;c;" + base64.b64encode(text.encode()).decode() + "\x07")
    return False


async def _quit(app: CommandHost, args: str) -> None:
    app.exit()


async def fork_command(app: CommandHost, args: str) -> None:
    """/fork: pick an earlier user message and fork a new session from it."""
    from pi_core.messages.llm import UserMessage, content_text
    from pi_core.session.entries import SessionMessageEntry

    choices: list[tuple[str, str]] = []
    for entry in app.session.session_manager.get_entries():
        if isinstance(entry, SessionMessageEntry) and isinstance(entry.message, UserMessage):
            content = entry.message.content
            text = content if isinstance(content, str) else content_text(content)
            choices.append((entry.id, text))
    if not choices:
        app.transcript.status("No messages to fork from", "yellow")
        return
    labels = [f"{i + 1}. {' '.join(text.split())[:70]}" for i, (_, text) in enumerate(choices)]
    picked = await app.ui.select("Fork from Message", labels)
    if picked is None:
        return
    entry_id, text = choices[labels.index(picked)]
    result = await app.session.fork(entry_id)
    if result.get("cancelled"):
        return
    app.buffer.text = text
    app.transcript.status("Forked to new session")


async def _clone(app: CommandHost, args: str) -> None:
    leaf = app.session.session_manager.get_leaf_id()
    if leaf is None:
        app.transcript.status("Nothing to clone yet", "yellow")
        return
    await app.session.fork(leaf, "at")
    app.transcript.status("Cloned to new session")


async def _model(app: CommandHost, args: str) -> None:
    wanted = args.strip()
    registry = app.session.model_registry
    if not wanted:
        names = ", ".join(m.key for m in registry.available_models())
        app.transcript.status(f"Usage: /model <provider/id>. Available: {names}")
        return
    for model in registry.available_models():
        if wanted in (model.key, model.id):
            await app.session.set_model(model)
            app.transcript.status(f"Model: {model.id}")
            return
    app.transcript.status(f"Error: no available model matches {wanted!r}", "red")


def _model_arguments(app: CommandHost) -> Callable[[str], Any]:
    def complete(prefix: str) -> list[dict[str, str]]:
        models = app.session.model_registry.available_models()
        return [{"value": m.key, "label": m.key, "description": m.name or ""}
                for m in models if prefix.lower() in m.key.lower()]  # fmt: skip

    return complete


def builtin_table(entries: tuple[Builtin, ...]) -> Mapping[str, Builtin]:
    """The built-ins keyed by name, read-only, in `BUILTIN_COMMAND_NAMES`' order (pi's), which
    must name them all."""
    table = {entry.name: entry for entry in entries}
    if len(table) != len(entries) or set(table) != set(BUILTIN_COMMAND_NAMES):
        raise ValueError(f"built-in commands {sorted(table)} are not {BUILTIN_COMMAND_NAMES}")
    return MappingProxyType({name: table[name] for name in BUILTIN_COMMAND_NAMES})


BUILTINS = builtin_table(
    (
        Builtin("new", "Start a new session", _new),
        Builtin("name", "Set the session display name", _name),
        Builtin("session", "Show session info and stats", _session),
        Builtin("compact", "Compact the context (optional focus)", _compact),
        Builtin("copy", "Copy the last agent message to the clipboard", _copy),
        Builtin("hotkeys", "Show the key bindings in effect", hotkeys_command),
        Builtin("changelog", "Show changelog entries", changelog_command),
        Builtin(
            "reload", "Reload plugins, skills, prompts, context files and keys", reload_command
        ),
        Builtin("fork", "Fork a new session from an earlier message", fork_command),
        Builtin("clone", "Duplicate the current session", _clone),
        Builtin("model", "Select a model (or /model provider/id)", model_command(_model)),
        Builtin("export", "Export the session to HTML (or the branch to .jsonl)", export_command),
        Builtin("import", "Replace the session with a .jsonl file", import_command),
        Builtin("share", "Share the session as a secret GitHub gist (needs gh)", share_command),
        Builtin("quit", "Quit pi", _quit),
        Builtin("tree", "Navigate the session tree (switch branches)", tree_command),
        Builtin("resume", "Resume a different session", resume_command),
        Builtin("scoped-models", "Choose the models Ctrl+P cycles through", scoped_models_command),
        Builtin("settings", "Open the settings", settings_command),
        Builtin("login", LOGIN_HELP, login_command),
        Builtin("logout", LOGOUT_HELP, logout_command),
    )
)
"""Every built-in command in pi's order, kept by the `/` menu (assembled once, never changed)."""


def slash_entries(app: CommandHost) -> list[SlashEntry]:
    """Every `/` command in pi's order: built-ins, prompt templates, plugin commands, skills."""
    entries = [
        SlashEntry(
            b.name, b.description, "built-in", _model_arguments(app) if b.name == "model" else None
        )
        for b in BUILTINS.values()
    ]
    session = app.session
    for template in session.resources.prompts:
        entries.append(SlashEntry(template.name, template.description or "", "prompt"))
    for command in session.plugins.registry.commands.values():
        source = command.plugin or "plugin"
        completer = command.get_argument_completions
        entries.append(SlashEntry(command.name, command.description or "", source, completer))
    # off: typed, `/skill:x` still expands (as in pi); it is only not offered
    if session.settings.get_enable_skill_commands():
        for skill in session.resources.skills:
            entries.append(SlashEntry(f"skill:{skill.name}", skill.description or "", "skill"))
    return entries


def split_command(text: str) -> tuple[str, str] | None:
    """`/name args` of a built-in command, else None."""
    if not text.startswith("/"):
        return None
    name, _, args = text[1:].partition(" ")
    if name in BUILTINS:
        return name, args
    return None


async def double_escape(app: CommandHost) -> None:
    """Run the `doubleEscapeAction` setting: the tree, a fork, or nothing."""
    action = app.session.settings.get_double_escape_action()
    if action in ("tree", "fork"):
        await BUILTINS[action].handler(app, "")
