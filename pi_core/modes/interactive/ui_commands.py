"""The selector commands added to the built-ins: /tree, /resume, /model's picker, /scoped-models,
/settings, /hotkeys (the key bindings in effect), /login and /logout."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.modes.interactive.app import InteractiveApp

Handler = Callable[["InteractiveApp", str], Awaitable[None]]


async def _tree(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.selectors.tree import open_tree

    await open_tree(app)


async def _resume(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.selectors.sessions import pick_session

    await pick_session(app)


def model_command(direct: Handler) -> Handler:
    """`/model provider/id` switches directly; `/model` alone opens the selector."""

    async def run(app: InteractiveApp, args: str) -> None:
        if args.strip():
            await direct(app, args)
            return
        from pi_core.modes.interactive.selectors.models import select_model

        await select_model(app)

    return run


async def _scoped_models(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.selectors.models import scope_models

    await scope_models(app)


async def _settings(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.settings_view import open_settings

    await open_settings(app)


async def _hotkeys(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.keybindings import hotkey_rows

    rows = [(keys, f"{description}  [{action}]") for keys, action, description
            in hotkey_rows(app.keymap)]  # fmt: skip
    rows += [("/", "commands"), ("!cmd / !!cmd", "shell command (!! keeps it out of context)"),
             ("@", "fuzzy file search")]  # fmt: skip
    for shortcut in app.session.plugins.registry.shortcuts.values():
        rows.append((shortcut.key, f"{shortcut.description or ''} [{shortcut.plugin}]"))
    width = max(len(key) for key, _ in rows)
    text = "\n".join(f"  {key.ljust(width)}  {what}" for key, what in rows)
    from pi_core.config.paths import agent_dir
    from pi_core.modes.interactive.footer import home_relative

    where = home_relative(str(agent_dir() / "keybindings.json"))
    app.transcript.status(f"Keyboard shortcuts ({where})\n" + text, "")


async def _login(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.login import login

    await login(app, args)


async def _logout(app: InteractiveApp, args: str) -> None:
    from pi_core.modes.interactive.login import logout

    await logout(app, args)


def selector_commands(direct_model: Handler) -> list[tuple[str, str, Handler]]:
    """(name, description, handler) of every command this module adds or replaces."""
    from pi_core.modes.interactive.login import LOGIN_HELP, LOGOUT_HELP

    return [
        ("tree", "Navigate the session tree (switch branches)", _tree),
        ("resume", "Resume a different session", _resume),
        ("model", "Select a model (or /model provider/id)", model_command(direct_model)),
        ("scoped-models", "Choose the models Ctrl+P cycles through", _scoped_models),
        ("settings", "Open the settings", _settings),
        ("hotkeys", "Show the key bindings in effect", _hotkeys),
        ("login", LOGIN_HELP, _login),
        ("logout", LOGOUT_HELP, _logout),
    ]
