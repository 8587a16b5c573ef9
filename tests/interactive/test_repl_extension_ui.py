"""The rest of `ctx.ui` in the REPL: editor component, raw input, themes, completers, component
widgets, the working row and the hidden-thinking label."""

from __future__ import annotations

import json
import re

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines

PLUGIN = """
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl

from pi_core import hookimpl

state = {}


def plugin_editor(buffer, theme):
    keys = KeyBindings()

    @keys.add("$")
    def _dollar(event):
        event.current_buffer.insert_text("<dollar>")

    label = Window(FormattedTextControl("[plugin editor]"), height=1)
    return HSplit([label, Window(BufferControl(buffer, key_bindings=keys), height=3)])


def editor_on(args, ctx):
    ctx.ui.set_editor_component(plugin_editor)
    ctx.ui.notify(f"factory kept: {ctx.ui.get_editor_component() is plugin_editor}")


def listen(args, ctx):
    def handler(data):
        if data == "q":
            ctx.ui.notify("listener ate q")
            return {"consume": True}
        if data == "z":
            return {"data": "Z"}
        return None

    state["stop"] = ctx.ui.on_terminal_input(handler)
    ctx.ui.notify("listening")


def unlisten(args, ctx):
    state.pop("stop")()
    ctx.ui.notify("stopped listening")


def issues(args, ctx):
    ctx.ui.add_autocomplete_provider(Issues)
    ctx.ui.notify("issue completer added")


def think_default(args, ctx):
    ctx.ui.set_hidden_thinking_label()
    ctx.ui.notify("label reset")


def themes(args, ctx):
    names = ",".join(theme["name"] for theme in ctx.ui.get_all_themes())
    light = ctx.ui.get_theme("light")
    missing = ctx.ui.set_theme("no-such-theme")["error"]
    done = ctx.ui.set_theme("light")["success"]
    ctx.ui.notify(f"themes={names} got={light.name} missing=[{missing}] set={done} "
                  f"now={ctx.ui.theme.name}")


class Issues(Completer):
    def __init__(self, current):
        self.current = current

    def get_completions(self, document, event):
        word = document.get_word_before_cursor(WORD=True)
        if word.startswith("#"):
            for number, title in ((1234, "fix the parser"), (1240, "faster start")):
                if str(number).startswith(word[1:]):
                    yield Completion(f"#{number}", start_position=-len(word),
                                     display_meta=title)
        yield from self.current.get_completions(document, event)


class Ruler:
    def __init__(self, tui, theme):
        self.tui = tui

    def render(self, width):
        return [f"component widget width={width}"]

    def dispose(self):
        state["disposed"] = True


def unruler(args, ctx):
    ctx.ui.set_widget("ruler", None)
    ctx.ui.notify(f"ruler disposed: {state.get('disposed', False)}")


class Busy:
    def __init__(self, ctx):
        self.ctx = ctx

    def render(self, width):
        return [f"agent idle={self.ctx.is_idle()}"]


def quiet(ctx):
    ctx.ui.set_working_message("Quietly busy")
    ctx.ui.set_working_visible(False)
    ctx.ui.set_widget("busy", lambda tui, theme: Busy(ctx))


@hookimpl
def session_start(event, ctx):
    ctx.ui.set_hidden_thinking_label("Pondering quietly")


@hookimpl
def register_commands(register):
    register("editor-on", editor_on, description="Own editor")
    register("editor-off", lambda args, ctx: ctx.ui.set_editor_component(None),
             description="Default editor")
    register("listen", listen, description="Raw input listener")
    register("unlisten", unlisten, description="Stop listening")
    register("themes", themes, description="Theme calls")
    register("issues", issues, description="Issue completer")
    register("ruler", lambda args, ctx: ctx.ui.set_widget("ruler", Ruler, "belowEditor"),
             description="A component widget")
    register("unruler", unruler, description="Remove it")
    register("think-default", think_default, description="Default hidden-thinking label")


@hookimpl
def register_shortcuts(register):
    register("f5", quiet, description="Hide the working row")
    register("f6", lambda ctx: ctx.ui.set_working_visible(True), description="Show it")
    register("f7", lambda ctx: ctx.ui.set_working_indicator(["<*>"], interval_ms=500),
             description="A static indicator")
    register("f8", lambda ctx: ctx.ui.set_working_indicator([]), description="No indicator")
"""


def start(screen: Screen) -> None:
    path = screen.home / "extui_plugin.py"
    path.write_text(PLUGIN)
    screen.start("-e", str(path))
    screen.ready()


def command(screen: Screen, text: str) -> None:
    screen.type(text)
    screen.keys("Enter")


def test_a_plugin_editor_component_replaces_the_editor_until_set_back(screen: Screen) -> None:
    screen.server.queue(chat_stream("got it"))
    start(screen)
    command(screen, "/editor-on")
    screen.wait_for(lambda s: "[plugin editor]" in s and "factory kept: True" in s)
    screen.type("ab$")
    screen.wait_for(lambda s: "ab<dollar>" in editor_lines(s))
    screen.keys("Enter")  # keys the component leaves alone keep their REPL meaning
    screen.wait_for("got it")
    sent = screen.server.requests[0].json()["messages"][-1]["content"]
    assert sent == [{"type": "text", "text": "ab<dollar>"}]
    command(screen, "/editor-off")
    screen.wait_for(lambda s: "[plugin editor]" not in s)
    screen.type("c$")
    screen.wait_for(lambda s: editor_lines(s) == ["c$"])


def test_a_terminal_input_listener_consumes_and_rewrites_keys(screen: Screen) -> None:
    start(screen)
    command(screen, "/listen")
    # the status line itself: while "/listen" is typed, the menu shows /unlisten's "Stop listening"
    screen.wait_for(lambda s: "listening" in [line.strip() for line in s.splitlines()])
    screen.type("aqz")
    screen.wait_for(lambda s: editor_lines(s) == ["aZ"] and "listener ate q" in s)
    screen.keys("C-c")
    screen.wait_for(lambda s: editor_lines(s) == [""])
    command(screen, "/unlisten")
    screen.wait_for("stopped listening")
    screen.type("qz")
    screen.wait_for(lambda s: editor_lines(s) == ["qz"])


def border_colour(screen: Screen) -> str:
    """The escape code in front of the editor's top rule."""
    text = screen._tmux("capture-pane", "-p", "-e")
    return next((line.split("─", 1)[0] for line in text.splitlines() if "──────────" in line), "")


def test_theme_getters_and_setter(screen: Screen) -> None:
    start(screen)
    dark = border_colour(screen)
    command(screen, "/themes")
    screen.wait_for(
        "themes=dark,light got=light missing=[Theme not found: no-such-theme] set=True now=light"
    )
    screen.wait_for(lambda s: border_colour(screen) != dark)
    settings = json.loads((screen.agent_dir / "settings.json").read_text())
    assert settings["theme"] == "light"


def test_a_plugin_completer_adds_to_the_menu(screen: Screen) -> None:
    start(screen)
    command(screen, "/issues")
    screen.wait_for("issue completer added")
    screen.type("fix #12")
    shown = screen.wait_for(lambda s: "#1234" in s and "#1240" in s)
    assert "fix the parser" in shown and "faster start" in shown
    screen.type("3")
    screen.wait_for(lambda s: "#1234" in s and "#1240" not in s)
    screen.keys("Tab")
    screen.wait_for(lambda s: editor_lines(s) == ["fix #1234"])
    screen.keys("C-c")
    screen.type("/iss")  # the built-in completions are still there underneath
    screen.wait_for("Issue completer [")


def test_a_widget_from_a_component_factory(screen: Screen) -> None:
    start(screen)
    command(screen, "/ruler")
    shown = screen.wait_for("component widget width=100")
    lines = stripped_lines(shown)
    rules = [n for n, line in enumerate(lines) if line.startswith("──────────")]
    assert lines.index("component widget width=100") > rules[-1]  # below the editor
    command(screen, "/unruler")
    shown = screen.wait_for("ruler disposed: True")
    screen.wait_for(lambda s: "component widget" not in s)


SPINNER_ROW = re.compile(r"^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Quietly busy$")


def test_the_working_row_can_be_hidden_and_its_indicator_changed(screen: Screen) -> None:
    held = chat_stream("finally done")
    held.pause_after_chunks = 1  # the agent keeps working until the test lets it go
    screen.server.queue(held)
    start(screen)
    screen.keys("F5")
    screen.wait_for("agent idle=True")
    command(screen, "talk")
    held.wait_paused()
    # the widget and the working row are drawn in the same pass of the live region
    shown = screen.wait_for("agent idle=False")
    assert "Quietly busy" not in shown
    screen.keys("F6")
    screen.wait_for(lambda s: any(SPINNER_ROW.match(line) for line in stripped_lines(s)))
    screen.keys("F7")
    screen.wait_for(lambda s: "<*> Quietly busy" in stripped_lines(s))
    screen.keys("F8")
    screen.wait_for(lambda s: "Quietly busy" in stripped_lines(s))
    held.resume()
    screen.wait_for(lambda s: "finally done" in s and "agent idle=True" in s)


def test_the_hidden_thinking_label(screen: Screen) -> None:
    settings = screen.agent_dir / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "hideThinkingBlock": True}))
    screen.server.queue(
        chat_stream("first answer", reasoning="secret musing"),
        chat_stream("second answer", reasoning="more musing"),
    )
    start(screen)
    command(screen, "one")
    shown = screen.wait_for("first answer")
    assert "Pondering quietly" in shown
    assert "Thinking..." not in shown and "secret musing" not in shown
    command(screen, "/think-default")
    screen.wait_for("label reset")
    command(screen, "two")
    shown = screen.wait_for("second answer")
    assert "Thinking..." in shown and "more musing" not in shown


EARLY_PLUGIN = """
from prompt_toolkit.layout import HSplit, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl

from pi_core import hookimpl


def boxed(buffer, theme):
    return HSplit([Window(FormattedTextControl("[boxed from the start]"), height=1),
                   Window(BufferControl(buffer), height=2)])


@hookimpl
def session_start(event, ctx):
    ctx.ui.set_editor_component(boxed)  # before the REPL exists
"""


def test_an_editor_component_set_at_session_start_is_there_from_the_first_frame(
    screen: Screen,
) -> None:
    path = screen.home / "early.py"
    path.write_text(EARLY_PLUGIN)
    screen.start("-e", str(path))
    screen.wait_for(lambda s: "[boxed from the start]" in s and "(fake) fake-model" in s)
    screen.type("typed into it")
    screen.wait_for(lambda s: editor_lines(s)[:2] == ["[boxed from the start]", "typed into it"])
