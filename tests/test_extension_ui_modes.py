"""The later `ctx.ui` calls outside the REPL (print mode's no-op UI, RPC mode) and the REPL's
small helpers behind them."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from pi_core import NoOpUI
from pi_core.modes.interactive.autocomplete import StackedCompleter
from pi_core.modes.interactive.terminal_input import InputListeners
from pi_core.modes.interactive.widgets import RenderHost, Widgets
from pi_core.modes.interactive.working import WorkingIndicator
from pi_core.modes.rpc_ui import RpcUI
from pi_core.plugins.ui import ExtensionUI


class _Component:
    def render(self, width: int) -> list[str]:
        return [f"w={width}"]


def _exercise(ui: ExtensionUI) -> None:
    """Every call pi answers with nothing outside its TUI."""
    ui.set_working_visible(False)
    ui.set_working_indicator(["*"], interval_ms=100)
    ui.set_working_indicator()
    ui.set_hidden_thinking_label("Musing")
    ui.set_hidden_thinking_label()
    ui.add_autocomplete_provider(lambda current: current)
    ui.set_editor_component(lambda buffer, theme: None)
    ui.set_widget("k", lambda tui, theme: _Component(), "belowEditor")
    ui.on_terminal_input(lambda data: {"consume": True})()


def test_print_mode_ui_answers_the_later_calls_with_nothing() -> None:
    ui = NoOpUI()
    _exercise(ui)
    assert ui.get_editor_component() is None
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None and ui.theme is None
    assert ui.set_theme("dark") == {"success": False, "error": "UI not available"}


def test_rpc_mode_sends_nothing_for_tui_only_calls() -> None:
    sent: list[dict[str, Any]] = []
    ui = RpcUI(sent.append)
    _exercise(ui)
    assert sent == []  # a component widget cannot cross the wire: pi drops it too
    assert ui.get_editor_component() is None
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None
    assert ui.set_theme("light") == {
        "success": False,
        "error": "Theme switching not supported in RPC mode",
    }
    ui.set_widget("k", ["a line"], "belowEditor")
    assert [(m["method"], m["widgetLines"]) for m in sent] == [("setWidget", ["a line"])]


def test_input_listeners_consume_rewrite_and_survive_a_raising_handler() -> None:
    errors: list[BaseException] = []
    listeners = InputListeners(errors.append)

    def broken(data: str) -> dict[str, Any] | None:
        raise RuntimeError("boom")

    listeners.add(broken)
    stop = listeners.add(lambda d: {"consume": True} if d == "q" else {"data": d.upper()})
    presses = [KeyPress("a", "a"), KeyPress("q", "q"), KeyPress(Keys.CPRResponse, "\x1b[3;1R")]
    kept = listeners.filter(presses)
    assert [(p.key, p.data) for p in kept] == [("A", "A"), (Keys.CPRResponse, "\x1b[3;1R")]
    assert [str(e) for e in errors] == ["boom"]  # reported once, removed; the keys got through
    stop()
    assert [p.data for p in listeners.filter([KeyPress("q", "q")])] == ["q"]


def test_stacked_completers_wrap_the_base_and_drop_a_broken_factory() -> None:
    errors: list[BaseException] = []
    stacked = StackedCompleter(errors.append)

    class Extra(Completer):
        def __init__(self, current: Completer) -> None:
            self.current = current

        def get_completions(self, document: Document, event: CompleteEvent) -> Any:
            yield Completion("#42", start_position=-len(document.text))
            yield from self.current.get_completions(document, event)

    stacked.add(Extra)  # before the editor exists: built again over the base later
    stacked.add(lambda current: "not a completer")
    stacked.over(WordCompleter(["#1", "#2"]))
    found = [c.text for c in stacked.get_completions(Document("#"), CompleteEvent())]
    assert found == ["#42", "#1", "#2"]
    assert len(errors) == 1 and "not a Completer" in str(errors[0])


def test_component_widgets_draw_at_each_look_and_are_disposed() -> None:
    drawn: list[str] = []
    errors: list[str] = []

    class Counting:
        def __init__(self, tui: RenderHost, theme: Any) -> None:
            self.theme = theme

        def render(self, width: int) -> list[str]:
            drawn.append(self.theme)
            return [f"{self.theme} {width} #{len(drawn)}"]

        def dispose(self) -> None:
            drawn.append("disposed")

    widgets = Widgets(RenderHost(lambda: None), lambda: "themed", lambda w, e: errors.append(w))
    widgets.set("c", Counting, "aboveEditor")
    widgets.set("l", [str(n) for n in range(12)], "belowEditor")
    assert widgets.lines("aboveEditor", 50) == ["themed 50 #1"]
    assert widgets.lines("aboveEditor", 60) == ["themed 60 #2"]
    assert widgets.lines("belowEditor", 60)[-1] == "... (widget truncated)"
    widgets.set("c", None, "aboveEditor")
    assert drawn[-1] == "disposed" and not widgets.has("aboveEditor")

    class Broken:
        def render(self, width: int) -> list[str]:
            raise ValueError("no")

    widgets.set("b", lambda tui, theme: Broken(), "aboveEditor")
    assert widgets.lines("aboveEditor", 60) == [] and errors == ["widget b"]
    assert not widgets.has("aboveEditor")


def test_the_working_indicator_frames() -> None:
    indicator = WorkingIndicator()
    assert "⠋" in (indicator.row("Working...", 0.0) or "")
    indicator.configure(["a", "b"], 100)
    assert indicator.row("busy", 0.15) == "b \x1b[2mbusy\x1b[0m"  # drawn as given
    indicator.configure([], None)
    assert indicator.row("busy", 0.0) == "\x1b[2mbusy\x1b[0m"
    indicator.visible = False
    assert indicator.row("busy", 0.0) is None


def test_the_repl_ui_keeps_what_plugins_set_before_it_starts() -> None:
    from pi_core.modes.interactive.extension_ui import InteractiveUI

    ui = InteractiveUI()  # session_start runs before the REPL exists

    def factory(buffer: Any, theme: Any) -> None:
        return None

    ui.set_editor_component(factory)
    ui.set_hidden_thinking_label("Musing")
    ui.set_working_visible(False)
    assert ui.get_editor_component() is factory and ui.hidden_thinking_label == "Musing"
    assert ui.indicator.visible is False
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None
    assert ui.set_theme("dark") == {"success": False, "error": "The REPL has not started yet"}
