"""The editor drawn before the agent has loaded: typing works at once, everything else waits.

`pi` in a terminal spends most of its start importing the core and loading plugins. This small
prompt_toolkit app (it imports nothing else) draws the editor first, so what the user types
shows as they type it. It edits only text: printable keys and Backspace. Any other key (Enter,
arrows, Tab, a paste, a shortcut that a plugin may own) and every key after it are held, in order,
and handed to the REPL with the text once it runs, so no key is lost or taken by the wrong
binding. Ctrl+C (twice) and Ctrl+D on an empty editor still leave at once, as in the REPL: a start
that hangs can always be left.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Dimension, FormattedTextControl, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.output import Output
from prompt_toolkit.output.vt100 import Vt100_Output

from pi_core.modes.interactive.footer import git_branch, home_relative
from pi_core.modes.interactive.keys import DOUBLE_PRESS_SECONDS
from pi_core.terminal_text import sanitize


class EarlyEditor:
    """The editor, its borders and a footer that says the agent is starting."""

    def __init__(
        self,
        cwd: str,
        input: Input | None = None,
        output: Output | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cwd = cwd
        self.clock = clock
        self.buffer = Buffer(multiline=True)
        self.held: list[KeyPress] = []
        self.quit = False  # the user left before the agent loaded
        self._last_ctrl_c = float("-inf")
        if output is None:
            terminal = Vt100_Output.from_pty(sys.stdout)
            # no cursor-position request: its answer could come after this app, to the REPL
            terminal.enable_cpr = False
            output = terminal
        self.app: Application[None] = _EarlyApplication(
            layout=Layout(self._layout(), focused_element=self.buffer),
            key_bindings=self._keys(),
            input=input,
            output=output,
            full_screen=False,
            min_redraw_interval=None,
            refresh_interval=None,
        )
        # prompt_toolkit adds its default bindings to the app's: here only ours may act on a key
        self.app._default_bindings = KeyBindings()
        self.app._page_navigation_bindings = KeyBindings()
        self.task: asyncio.Task[None] | None = None

    def _layout(self) -> HSplit:
        editor = Window(
            BufferControl(self.buffer),
            height=Dimension(min=1, max=5),
            wrap_lines=True,
            dont_extend_height=True,
        )
        return HSplit(
            [
                Window(height=1, char="─"),
                editor,
                Window(height=1, char="─"),
                Window(FormattedTextControl(self._footer), dont_extend_height=True),
            ]
        )

    def _footer(self) -> StyleAndTextTuples:
        place = home_relative(self.cwd)
        branch = git_branch(self.cwd)
        if branch:
            place += f" ({branch})"
        state = "starting… (keys are kept until it is ready)" if self.held else "starting…"
        return [("", sanitize(place)), ("", "\n"), ("fg:ansibrightblack", state)]

    def _keys(self) -> KeyBindings:
        kb = KeyBindings()
        holding = Condition(lambda: bool(self.held))

        @kb.add(Keys.Any, filter=~holding)
        def _type(event: KeyPressEvent) -> None:
            data = event.data
            if len(event.key_sequence) == 1 and len(data) == 1 and data.isprintable():
                event.current_buffer.insert_text(data)
            else:
                self._hold(event)

        @kb.add("backspace", filter=~holding)
        def _backspace(event: KeyPressEvent) -> None:
            event.current_buffer.delete_before_cursor(1)

        @kb.add("c-c")
        def _clear(event: KeyPressEvent) -> None:
            moment = self.clock()
            if moment - self._last_ctrl_c < DOUBLE_PRESS_SECONDS:
                self.leave()
                return
            self._last_ctrl_c = moment
            if self.held:
                self._hold(event)
            else:
                event.current_buffer.reset()

        @kb.add("c-d", filter=~holding)
        def _exit_or_hold(event: KeyPressEvent) -> None:
            if not event.current_buffer.text:
                self.leave()
            else:
                self._hold(event)

        @kb.add(Keys.Any, filter=holding)
        def _keep(event: KeyPressEvent) -> None:
            self._hold(event)

        @kb.add(Keys.Ignore)
        def _ignore(event: KeyPressEvent) -> None:
            """Nothing to do (a key the input parser drops)."""

        return kb

    def _hold(self, event: KeyPressEvent) -> None:
        was_holding = bool(self.held)
        self.held.extend(event.key_sequence)
        if not was_holding:
            self.app.invalidate()  # the footer says the keys are kept

    def leave(self) -> None:
        """Close the editor: the user leaves before the agent has loaded."""
        self.quit = True
        self._close()

    def _close(self) -> None:
        if self.app.is_running and not self.app.is_done:
            self.app.exit()

    def start(self) -> asyncio.Task[None]:
        """Draw the editor and take keys (on the running loop); the task ends when the user
        leaves (Ctrl+C twice, Ctrl+D on empty) or the editor is handed over."""
        self.task = asyncio.ensure_future(self.app.run_async())
        return self.task

    async def hand_over(self) -> Document:
        """Close the editor (erasing it) and return its text; the held keys, then any not yet
        handled, become the next prompt_toolkit app's typeahead."""
        self._close()
        if self.task is not None:
            await self.task
        pending = get_typeahead(self.app.input)  # what the app had read but not handled
        store_typeahead(self.app.input, [*self.held, *pending])
        self.held = []
        return self.buffer.document


class _EarlyApplication(Application[None]):
    """prompt_toolkit's Application, erasing its lines one by one when it closes.

    prompt_toolkit erases with "erase below" from the app's first line; when that line is the
    screen's first (a `clear`ed terminal, a new tmux pane), tmux and some terminals keep the
    erased lines in the scrollback, where the editor would then show above the header.
    """

    def _redraw(self, render_as_done: bool = False) -> None:
        if not render_as_done:
            super()._redraw()
            return
        screen = self.renderer.last_rendered_screen
        if screen is None or screen.height < 1:
            return
        output = self.output
        cursor = self.renderer._cursor_pos
        output.cursor_backward(cursor.x)
        output.cursor_up(cursor.y)
        for row in range(screen.height):
            output.erase_end_of_line()
            if row < screen.height - 1:
                output.cursor_down(1)
        output.cursor_up(screen.height - 1)
        output.reset_attributes()
        output.enable_autowrap()
        output.flush()
