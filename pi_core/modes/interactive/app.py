"""The REPL: a prompt_toolkit application drawn inline below the scrollback.

Finished blocks are printed once above the app; the app itself is the small live region
(streaming tail, running tools, queue, spinner, widgets, editor, menu, footer). Session events
only record state; a frame timer renders and prints, so a slow terminal never slows the agent.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.layout import Layout
from prompt_toolkit.styles import DynamicStyle
from prompt_toolkit.widgets import SearchToolbar

from pi_core.modes.interactive import actions
from pi_core.modes.interactive.actions import mention_sources
from pi_core.modes.interactive.application import ReplApplication
from pi_core.modes.interactive.clipboard_image import paste_clipboard_image
from pi_core.modes.interactive.commands import BUILTINS, double_escape, slash_entries
from pi_core.modes.interactive.completion import EditorCompleter
from pi_core.modes.interactive.completion_pick import completing_context, highlighter
from pi_core.modes.interactive.dialog_keys import dialog_keys
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.editor import PasteStore
from pi_core.modes.interactive.extension_ui import InteractiveUI
from pi_core.modes.interactive.external_editor import configured_editor, edit_externally
from pi_core.modes.interactive.frames import FrameTimer
from pi_core.modes.interactive.input_priority import keyboard_first
from pi_core.modes.interactive.keybindings import DoubleEscape, Keymap, install_keymap
from pi_core.modes.interactive.keyboard_protocol import KeyboardProtocol
from pi_core.modes.interactive.keys import build_key_bindings
from pi_core.modes.interactive.layout import ReplView
from pi_core.modes.interactive.live_state import LiveState
from pi_core.modes.interactive.markdown_view import chat_options
from pi_core.modes.interactive.progress import TerminalProgress
from pi_core.modes.interactive.scrollback import print_above, write_stdout
from pi_core.modes.interactive.selectors.picker import dialog_own_keys
from pi_core.modes.interactive.session_events import (
    handle_event,
)
from pi_core.modes.interactive.session_shown import folder_history
from pi_core.modes.interactive.tasks import Tasks, shortcut_runner
from pi_core.modes.interactive.terminal_input import install as install_input_listeners
from pi_core.modes.interactive.terminal_output import threaded_output
from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.themes.prompt_style import prompt_style
from pi_core.modes.interactive.tmux_keys import warn_about_tmux_keys
from pi_core.modes.interactive.transcript import Transcript
from pi_core.terminal_text import sanitize


class InteractiveApp:
    """One REPL over one AgentSession."""

    def __init__(self, session: Any, ui: InteractiveUI, theme: Theme) -> None:
        self.session = session
        self.ui = ui
        self.theme = theme
        ui.app = self
        self.pastes = PasteStore()
        markdown = chat_options(str(session.settings.get_code_block_indent()), theme)
        self.transcript = Transcript(
            theme, self._tool, self._renderer, self.report_render_error, markdown
        )
        self.transcript.hide_thinking = bool(session.settings.get_hide_thinking_block())
        self.transcript.show_images = session.settings.get_show_images()
        self.transcript.image_width_cells = session.settings.get_image_width_cells()
        self.state = LiveState()
        self.dialog: Dialog | None = None
        self.custom_component: Any = None
        self._custom_done: Any = None
        self.exit_code = 0
        self._tasks = Tasks(lambda error: self.transcript.status(error, "red"), self.invalidate)
        self._closing = False
        self.output = threaded_output()
        self.buffer = Buffer(
            multiline=True,
            history=folder_history(session),  # an opened session's prompts on top, as in pi
            completer=ui.autocomplete.over(
                EditorCompleter(
                    lambda: slash_entries(self),
                    lambda: self.session.cwd,
                    lambda: mention_sources(self.session),
                )
            ),
            complete_while_typing=Condition(self._completing_context),
            enable_history_search=False,
            on_completions_changed=highlighter(self._completing_context),
        )
        self.search = SearchToolbar()
        self.dialog_buffer = Buffer(multiline=True)
        self.kb_holder = KeyBindings()
        self.keymap = Keymap()
        self._escapes = DoubleEscape()
        self.keyboard = KeyboardProtocol(self.write)
        self.progress = TerminalProgress(self.write, session.settings.get_show_terminal_progress)
        self.view = ReplView(self, self.dialog_buffer, self.search)
        self.app: Application[int] = ReplApplication(
            layout=Layout(self.view.container(), focused_element=self.buffer),
            key_bindings=merge_key_bindings(
                [
                    self._dynamic_keys(),
                    dialog_keys(
                        lambda: self.dialog,
                        lambda: self.custom_component is not None,
                        self._cancel_custom,
                    ),
                    dialog_own_keys(self),
                    self.keyboard.key_bindings(),
                ]
            ),
            style=DynamicStyle(lambda: prompt_style(self.theme)),
            output=self.output,
            full_screen=False,
            mouse_support=False,
            # a key press redraws at once; everything else is drawn by the frame timer
            min_redraw_interval=None,
            max_render_postpone_time=None,
            refresh_interval=None,
            erase_when_done=False,
        )
        self.app.drain = self.drain  # type: ignore[method-assign]
        self.app.keyboard = self.keyboard
        self.frames = FrameTimer(self, self.app, self._backlog)
        self.app.ttimeoutlen = 0.05
        self.app.timeoutlen = 0.15  # a lone Esc waits this long for a following key (Alt+Enter)
        self.rebuild_keys()
        install_input_listeners(self.app.key_processor, ui.input_listeners)
        ui.app_ready()
        session.subscribe(self.on_event)
        session.dispatcher.on_error(self._on_plugin_error)

    # --- layout ---------------------------------------------------------------------------

    def rows(self) -> int:
        """The terminal's height."""
        try:
            return self.app.output.get_size().rows
        except Exception:
            return 24

    def columns(self) -> int:
        """The terminal's width (at least 20)."""
        try:
            return max(20, self.app.output.get_size().columns)
        except Exception:
            return 80

    def render_count(self) -> int:
        """How many times the screen was drawn."""
        return self.app.render_counter

    # --- keys -----------------------------------------------------------------------------

    def _dynamic_keys(self) -> Any:
        from prompt_toolkit.key_binding import DynamicKeyBindings

        return DynamicKeyBindings(lambda: self.kb_holder)

    def rebuild_keys(self) -> None:
        """(Re)build the key bindings, plugin shortcuts last so they win."""
        shortcuts = {
            key: shortcut_runner(
                shortcut.handler, lambda: self.session.plugins.ctx, self._tasks.spawn
            )
            for key, shortcut in self.session.plugins.registry.shortcuts.items()
        }
        self.kb_holder = build_key_bindings(
            self,
            dialog_open=Condition(
                lambda: self.dialog is not None or self.custom_component is not None
            ),
            shortcuts=shortcuts,
        )
        self.keymap = install_keymap(
            self.kb_holder,
            self,
            self.session.plugins.agent_dir,
            lambda: self.dialog is not None,
            lambda warning: self.transcript.status(f"Warning: {warning}", "yellow"),
        )

    def run_command(self, name: str, args: str) -> None:
        """Run a built-in slash command as if typed."""
        self.spawn(BUILTINS[name].handler(self, args), f"/{name}")

    def escape_on_empty(self) -> None:
        """Esc on an empty editor with nothing to abort: a second one runs doubleEscapeAction."""
        if self._escapes.pressed(time.monotonic()):
            self.spawn(double_escape(self), "double escape")

    def _cancel_custom(self) -> None:
        if self._custom_done is not None:
            self._custom_done(None)

    # --- Actions (called by the keys) -----------------------------------------------------

    def submit(self, text: str, follow_up: bool) -> None:
        """Route what Enter sent: command, `!` bash, queue, or a prompt."""
        actions.submit(self, text, follow_up)

    def interrupt(self) -> bool:
        """Esc: abort the agent (restoring the queue), a `!` command, compaction or a retry."""
        return actions.interrupt(self)

    def exit(self) -> None:
        """Leave the REPL (the session shuts down after the app closes)."""
        if not self._closing:
            self._closing = True
            self.app.exit(result=self.exit_code)

    def exit_with_error(self, error: Exception) -> None:
        """Leave the REPL; its run raises `error` once the terminal is restored."""
        if not self._closing:
            self._closing = True
            self.app.exit(exception=error)

    def cycle_thinking(self) -> None:
        """Shift+Tab: the next thinking level."""
        actions.cycle_thinking(self)

    def cycle_model(self, backward: bool) -> None:
        """Ctrl+P: the next scoped (or available) model."""
        actions.cycle_model(self, backward)

    def toggle_thinking(self) -> None:
        """Ctrl+T: hide or show thinking blocks."""
        actions.toggle_thinking(self)

    def toggle_expanded(self) -> None:
        """Ctrl+O: expand or collapse tool output and the header.

        When idle, the scrollback is cleared and the whole conversation printed again in the
        new state (as pi redraws its chat); while the agent works, the latest tool results
        are printed again instead, so the streaming answer is not disturbed.
        """
        self.transcript.expanded = not self.transcript.expanded
        if self.session.is_streaming or self.session.compaction.is_compacting:
            self.transcript.reprint_recent(self.columns())
            return
        self.frames.relayout_soon()

    def dequeue(self) -> None:
        """Alt+Up: queued messages back into the editor."""
        actions.dequeue(self)

    def external_editor(self) -> None:
        """Ctrl+G: edit the text in $VISUAL / $EDITOR."""
        editor = configured_editor()
        if not editor:
            self.state.status_line = "No editor configured. Set $VISUAL or $EDITOR"
            return
        text = self.expand_text(self.buffer.text)
        edit = edit_externally(editor, text, self.buffer, self.drain, self.keyboard)
        self.spawn(edit, "external editor")

    def paste_image(self) -> None:
        """Ctrl+V: the clipboard's image saved to a file, its path inserted (as pi does)."""
        self.spawn(paste_clipboard_image(self.buffer.insert_text), "paste image")

    def paste(self, text: str) -> str:
        """What a paste inserts (a marker when large)."""
        return self.pastes.insert_text(text)

    def expand_text(self, text: str) -> str:
        """Editor text with the paste markers expanded."""
        return self.pastes.expand(text)

    def delete_marker(self, text: str, cursor: int) -> tuple[int, int] | None:
        """A paste marker right before the cursor, deleted as one."""
        return self.pastes.marker_before(text, cursor)

    def notify(self, message: str) -> None:
        """A transient status line under the live region."""
        self.state.status_line = message
        self.invalidate()

    # --- events (see session_events.py) --------------------------------------------------

    def on_event(self, event: Any) -> None:
        """Record an agent or session event (rendering happens on the next frame)."""
        handle_event(self, event)
        self.progress.on_event(event)

    def _on_plugin_error(self, error: Any) -> None:
        self.transcript.status(f"Error: plugin {error.source or error.plugin} failed in "
                               f"{error.event}: {error.error}", "red")  # fmt: skip
        self.invalidate()

    def _warn(self, text: str) -> None:
        self.transcript.status(f"Warning: {text}", "yellow")

    def report_render_error(self, what: str, error: BaseException) -> None:
        """A renderer raised: say so once; the plain view is shown instead."""
        self.transcript.status(
            f"Warning: renderer {what} failed ({type(error).__name__}: {error}); "
            "showing plain text",
            "yellow",
        )

    def _tool(self, name: str) -> Any:
        return self.session.tools.all.get(name)

    def _renderer(self, custom_type: str) -> Any:
        registered = self.session.plugins.registry.renderers.get(custom_type)
        return registered.renderer if registered is not None else None

    # --- dialogs --------------------------------------------------------------------------

    def open_dialog(self, dialog: Dialog) -> None:
        """Show a dialog in place of the editor."""
        self.dialog = dialog
        if dialog.takes_text:
            dialog.buffer = self.dialog_buffer
            self.dialog_buffer.reset()
            self.dialog_buffer.text = dialog.prefill
            self.dialog_buffer.cursor_position = len(dialog.prefill)
            self.app.layout.focus(self.dialog_buffer)
        self.invalidate()

    def open_custom(self, component: Any, done: Any) -> None:
        """Show a plugin's component in place of the editor (focused when it can be)."""
        self.custom_component = component
        self._custom_done = done
        self.focus(component)
        self.invalidate()

    def close_custom(self, component: Any) -> None:
        """Put the editor back after a custom component."""
        if self.custom_component is component:
            self.custom_component = None
            self._custom_done = None
            self.focus(self.buffer)
        self.invalidate()

    def focus(self, target: Any) -> bool:
        """Focus a buffer or container; False when it is not on screen."""
        try:
            self.app.layout.focus(target)
        except ValueError:
            return False
        return True

    def close_dialog(self, dialog: Dialog) -> None:
        """Put the editor back."""
        if self.dialog is dialog:
            self.dialog = None
            self.focus(self.buffer)
        self.invalidate()

    # --- output ---------------------------------------------------------------------------

    def invalidate(self) -> None:
        """Ask for a redraw on the next frame (key presses redraw at once, by themselves)."""
        self.frames.request()
        self.view.changed()

    def write(self, text: str) -> None:
        """Write text to the terminal, through the writer thread while the app runs."""
        if self.output is not None:
            self.output.writer.write(text)
        else:
            write_stdout(text)

    async def print_above(self, text: str) -> None:
        """Print finished lines into the scrollback above the live region, then redraw it."""
        await print_above(self.app, self.write, text)

    def _backlog(self) -> int:
        return self.output.writer.backlog if self.output is not None else 0

    def drain(self) -> None:
        """Wait until the terminal has taken everything written so far."""
        if self.output is not None:
            self.output.writer.drain()

    def write_raw(self, text: str) -> None:
        """Write escape codes straight to the terminal (OSC 52, titles)."""
        self.app.output.write_raw(text)
        self.app.output.flush()

    def set_title(self, title: str) -> None:
        """The terminal window's title."""
        if self.theme.color:
            self.write_raw(f"\x1b]0;{sanitize(title).replace(chr(10), ' ')}\x07")

    def update_title(self) -> None:
        """`π - name - folder`, as pi does."""
        folder = os.path.basename(str(self.session.cwd)) or str(self.session.cwd)
        name = self.session.session_name
        self.set_title(f"π - {name} - {folder}" if name else f"π - {folder}")

    def spawn(self, coroutine: Any, what: str) -> asyncio.Task[Any]:
        """Run a coroutine; an error is printed, never lost."""
        return self._tasks.spawn(coroutine)

    # --- run ------------------------------------------------------------------------------

    async def run(
        self, first_prompt: str | None = None, images: Any = None, more: list[str] | None = None
    ) -> int:
        """Run until the user exits; returns the exit code."""
        self.update_title()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGTERM, self.exit)
            loop.add_signal_handler(signal.SIGHUP, self.exit)
        frames = asyncio.ensure_future(self.frames.run())
        undo_keyboard_first = self._keyboard_first(loop)
        # markdown-it, rich.syntax and pygments load in a thread once the editor is up: the
        # first answer finds them ready, and typing is not held up meanwhile
        loop.call_later(0.2, _start_warm_up)
        local = None
        if self.session.model is None:
            from pi_core.modes.interactive.local_models import offer_local_models

            local = self.spawn(offer_local_models(self), "local model servers")
        # asked once the terminal is in raw mode (which pre_run callables come just before)
        self.app.pre_run_callables.append(lambda: _soon(loop, self.keyboard.start))
        self.spawn(warn_about_tmux_keys(self._warn), "tmux check")
        if first_prompt:

            async def send_all() -> None:
                if local is not None:
                    await local
                await self.session.prompt(first_prompt, images=images)
                for text in more or []:
                    await self.session.prompt(text)

            self.spawn(send_all(), "prompt")
        try:
            code = await self.app.run_async()
        finally:
            undo_keyboard_first()
            frames.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await frames
            self.keyboard.stop()
            if self.progress.shown:
                self.progress.stop()
            self.drain()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGTERM)
                loop.remove_signal_handler(signal.SIGHUP)
        self.flush_before_start()
        return int(code or 0)

    def _keyboard_first(self, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
        try:
            fd = self.app.input.fileno()
        except (NotImplementedError, AttributeError, OSError, ValueError):
            return lambda: None
        return keyboard_first(loop, fd)

    def flush_before_start(self) -> None:
        """Print what the transcript holds (a loaded session) before the app draws."""
        if self.transcript.out:
            write_stdout(self.transcript.take_out())

    def _completing_context(self) -> bool:
        return completing_context(self.buffer.document.text_before_cursor)


def _soon(loop: asyncio.AbstractEventLoop, callback: Callable[[], None]) -> None:
    loop.call_soon(callback)


def _start_warm_up() -> None:
    import threading

    from pi_core.modes.interactive.rendering import warm_up

    threading.Thread(target=warm_up, name="pi-warm-up", daemon=True).start()
