"""One list of built-in command names: the REPL's table and the plugin registry share it."""

from __future__ import annotations

import pytest

from pi_core.builtin_commands import BUILTIN_COMMAND_NAMES
from pi_core.modes.interactive.commands import BUILTINS, Builtin, builtin_table
from pi_core.plugins.registrations import BUILTIN_COMMANDS, Command, PluginRegistrations, Registry

PI_BUILTINS = {
    "settings", "model", "scoped-models", "export", "import", "share", "copy", "name", "session",
    "changelog", "hotkeys", "fork", "clone", "tree", "login", "logout", "new", "compact",
    "resume", "reload", "quit",
}  # fmt: skip
"""pi 0.73.1's BUILTIN_SLASH_COMMANDS (dist/core/slash-commands.js)."""


def test_the_repl_and_the_registry_know_the_same_builtins_as_pi() -> None:
    assert set(BUILTINS) == set(BUILTIN_COMMANDS) == PI_BUILTINS
    assert len(BUILTIN_COMMAND_NAMES) == len(PI_BUILTINS)


def test_the_repl_table_is_built_once_and_read_only() -> None:
    with pytest.raises(TypeError):
        BUILTINS["extra"] = BUILTINS["quit"]  # type: ignore[index]


async def _nothing(host: object, args: str) -> None:
    """A handler that does nothing."""


def test_the_repl_table_may_add_handlers_but_not_names() -> None:
    entries = tuple(Builtin(name, "", _nothing) for name in BUILTIN_COMMAND_NAMES)
    assert list(builtin_table(entries)) == list(BUILTIN_COMMAND_NAMES)
    with pytest.raises(ValueError, match="not"):
        builtin_table((*entries, Builtin("extra", "", _nothing)))
    with pytest.raises(ValueError):
        builtin_table(entries[1:])
    with pytest.raises(ValueError):
        builtin_table((*entries, entries[0]))  # a name twice


def test_a_plugin_command_named_like_any_builtin_is_skipped_and_reported() -> None:
    registrations = PluginRegistrations("clash.py")
    registrations.commands = [
        Command(name, lambda args, ctx: None, plugin="clash.py")
        for name in [*BUILTIN_COMMAND_NAMES, "mine"]
    ]
    registry = Registry.merge([registrations])
    assert list(registry.commands) == ["mine"]
    reported = [d.message for d in registry.diagnostics]
    assert len(reported) == len(BUILTIN_COMMAND_NAMES)
    for name in BUILTIN_COMMAND_NAMES:
        assert any(f"command /{name} " in message for message in reported)
