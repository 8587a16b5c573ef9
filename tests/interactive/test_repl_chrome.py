"""A plugin's own header, footer and custom component, and Ctrl+O replaying the conversation."""

from __future__ import annotations

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines

PLUGIN = """
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import FormattedTextControl

from pi_core import hookimpl


def footer(data):
    return [f"custom-footer {data['model']} w={data['width']}"]


def head(options):
    return "custom-header expanded=" + str(options["expanded"])


@hookimpl
def session_start(event, ctx):
    ctx.ui.set_header(head)


async def pick(args, ctx):
    def component(done):
        keys = KeyBindings()

        @keys.add("y")
        def _yes(event):
            done("picked-yes")

        control = FormattedTextControl(FormattedText([("", "custom-component: press y")]),
                                       focusable=True, key_bindings=keys)
        return Window(control, height=1)

    answer = await ctx.ui.custom(component)
    ctx.ui.notify(f"custom answered {answer}")


@hookimpl
def register_commands(register):
    register("pick", pick, description="A custom component")
    register("foot", lambda args, ctx: ctx.ui.set_footer(footer), description="Own footer")
    register("unfoot", lambda args, ctx: ctx.ui.set_footer(None), description="Default footer")
"""


def start_with_plugin(screen: Screen) -> None:
    path = screen.home / "chrome_plugin.py"
    path.write_text(PLUGIN)
    screen.start("-e", str(path))
    screen.ready()


def test_a_plugin_header_replaces_the_version_and_hints(screen: Screen) -> None:
    start_with_plugin(screen)
    shown = screen.wait_for("custom-header expanded=False")
    assert "escape interrupt" not in shown


def test_a_plugin_footer_replaces_the_default_and_can_be_removed(screen: Screen) -> None:
    start_with_plugin(screen)
    screen.type("/foot")
    screen.keys("Enter")
    shown = screen.wait_for("custom-footer fake/fake-model w=100")
    assert "(fake) fake-model" not in shown
    screen.type("/unfoot")
    screen.keys("Enter")
    screen.wait_for("(fake) fake-model")


def test_a_custom_component_takes_the_editor_place_until_done(screen: Screen) -> None:
    start_with_plugin(screen)
    screen.type("/pick")
    screen.keys("Enter")
    shown = screen.wait_for("custom-component: press y")
    assert editor_lines(shown) == ["custom-component: press y"]
    screen.type("x")  # not the component's key, and the editor is hidden: nothing typed
    screen.type("y")
    screen.wait_for("custom answered picked-yes")
    screen.type("/pick")
    screen.keys("Enter")
    screen.wait_for("custom-component: press y")
    screen.keys("Escape")
    shown = screen.wait_for("custom answered None")
    assert "x" not in editor_lines(shown)


def test_ctrl_o_when_idle_prints_the_conversation_again_expanded(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("", tool_calls=[("bash", {"command": "seq 1 30"})]), chat_stream("done")
    )
    screen.start()
    screen.ready()
    screen.type("go")
    screen.keys("Enter")
    shown = screen.wait_for("done")
    assert "3" not in stripped_lines(shown) and "earlier lines" in shown
    screen.keys("C-o")
    expanded = screen.wait_for("cycle models backwards")  # the header, expanded
    lines = stripped_lines(expanded)
    assert "3" in lines and "done" in lines and "go" in lines
    assert "earlier lines" not in expanded  # the old collapsed view was cleared away
    screen.keys("C-o")
    collapsed = screen.wait_for("Press ctrl+o to show all keys")
    assert "earlier lines" in collapsed and "cycle models backwards" not in collapsed
