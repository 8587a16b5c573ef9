"""The built-in commands that open a selector or read the keymap: /tree, /resume, /model's
picker, /scoped-models, /settings, /hotkeys (the key bindings in effect), /login and /logout."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

Handler = Callable[["CommandHost", str], Awaitable[None]]


async def tree_command(app: CommandHost, args: str) -> None:
    """/tree."""
    from pi_core.modes.interactive.selectors.tree import open_tree

    await open_tree(app)


async def resume_command(app: CommandHost, args: str) -> None:
    """/resume."""
    from pi_core.modes.interactive.selectors.sessions import pick_session

    await pick_session(app)


def model_command(direct: Handler) -> Handler:
    """`/model provider/id` switches directly; `/model` alone opens the selector."""

    async def run(app: CommandHost, args: str) -> None:
        if args.strip():
            await direct(app, args)
            return
        from pi_core.modes.interactive.selectors.models import select_model

        await select_model(app)

    return run


async def scoped_models_command(app: CommandHost, args: str) -> None:
    """/scoped-models."""
    from pi_core.modes.interactive.selectors.models import scope_models

    await scope_models(app)


async def settings_command(app: CommandHost, args: str) -> None:
    """/settings."""
    from pi_core.modes.interactive.settings_view import open_settings

    await open_settings(app)


async def hotkeys_command(app: CommandHost, args: str) -> None:
    """/hotkeys."""
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


async def login_command(app: CommandHost, args: str) -> None:
    """/login."""
    from pi_core.modes.interactive.login import login

    await login(app, args)


async def logout_command(app: CommandHost, args: str) -> None:
    """/logout."""
    from pi_core.modes.interactive.login import logout

    await logout(app, args)
