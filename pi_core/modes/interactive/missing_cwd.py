"""The REPL's question when a session's stored folder is gone: continue it in the current one?

At start-up (`pi --session FILE`, before the REPL is drawn) the choices are Continue and Cancel,
and Cancel ends pi with exit code 0; inside the REPL (`/resume`, `/import`) they are Yes and No,
and No leaves the open session as it was. Either way the file keeps its header.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pi_core.session.missing_cwd import MissingSessionCwd, MissingSessionCwdError
from pi_core.terminal_text import sanitize

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import CommandHost

T = TypeVar("T")
TITLE = "Session folder not found"
START_CHOICES = ("Continue", "Cancel")
HINT = "↑↓ move  enter select  escape/ctrl+c cancel"


async def open_or_ask(open_session: Callable[[bool], Awaitable[T]], *, plain: bool) -> T | None:
    """Open the session (`open_session(in_cwd)`); when its folder is gone, ask whether to go on
    in the current folder and open it there, or return None when the user cancels."""
    try:
        return await open_session(False)
    except MissingSessionCwdError as error:
        agreed = ask_in_lines(error.issue) if plain else await ask_at_start(error.issue)
    if not agreed:
        return None
    return await open_session(True)


async def ask_at_start(issue: MissingSessionCwd) -> bool:
    """Show the question on its own, before the REPL; True for Continue. Keys typed ahead (while
    the early editor was up) are set aside for the REPL, not taken as an answer."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.input import create_input
    from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.layout import Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    terminal_input = create_input()
    held = get_typeahead(terminal_input)
    chosen = [0]

    def view() -> StyleAndTextTuples:
        lines: StyleAndTextTuples = [("", f" {line}\n") for line in issue.question().split("\n")]
        lines.append(("", "\n"))
        for index, choice in enumerate(START_CHOICES):
            marked = index == chosen[0]
            lines.append(("bold" if marked else "", f" {'→' if marked else ' '} {choice}\n"))
        lines.append(("", "\n"))
        lines.append(("fg:ansibrightblack", f" {HINT}"))
        return lines

    keys = KeyBindings()

    @keys.add("up")
    def _up(event: KeyPressEvent) -> None:
        chosen[0] = max(0, chosen[0] - 1)

    @keys.add("down")
    def _down(event: KeyPressEvent) -> None:
        chosen[0] = min(len(START_CHOICES) - 1, chosen[0] + 1)

    @keys.add("enter")
    def _select(event: KeyPressEvent) -> None:
        event.app.exit(result=chosen[0] == 0)

    @keys.add("escape", eager=True)
    @keys.add("c-c")
    def _cancel(event: KeyPressEvent) -> None:
        event.app.exit(result=False)

    app: Application[bool] = Application(
        layout=Layout(Window(FormattedTextControl(view, show_cursor=False))),
        key_bindings=keys,
        full_screen=False,
        erase_when_done=True,
        input=terminal_input,
    )
    try:
        return bool(await app.run_async())
    finally:
        store_typeahead(terminal_input, held)


def ask_in_lines(issue: MissingSessionCwd) -> bool:
    """The question for a line terminal (`TERM=dumb`): y continues, anything else cancels."""
    print(sanitize(issue.question()), file=sys.stderr)  # it quotes the session file's header
    try:
        answer = input("Continue in the current folder? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


async def switch_asking(
    app: CommandHost, path: str, choices: tuple[str, str] = ("Yes", "No"), *, stay: bool = True
) -> dict[str, Any] | None:
    """Switch the REPL's session to `path`; when its folder is gone ask (`choices`: go on, do
    not) whether to go on in the current folder. Returns the switch's result, with `in_cwd`
    saying whether it went on here, or None when the user said no (nothing changed); a folder
    whose plugins fail to load is said in the transcript and counts as cancelled (unless not
    `stay`: then its PluginLoadFailed is raised, as for `pi -r` at start)."""
    from pi_core.modes.interactive.selectors.picker import choose
    from pi_core.plugins.errors import PluginLoadFailed

    try:
        result = await app.session.switch_session(path)
        return {**result, "in_cwd": False}
    except MissingSessionCwdError as error:
        answer = await choose(app, TITLE, list(choices), message=error.issue.question())
    except PluginLoadFailed as error:  # the session's folder has a plugin that fails: stay
        if not stay:
            raise
        for line in error.errors:
            app.transcript.status(f"Error: {line.message()}", "red")
        app.transcript.status("Error: the session stays where it was (see docs/sessions.md)", "red")
        return {"cancelled": True, "in_cwd": False}
    if answer != choices[0]:
        return None
    result = await app.session.switch_session(path, in_cwd=True)
    return {**result, "in_cwd": True}
