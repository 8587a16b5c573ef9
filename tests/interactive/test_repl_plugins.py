"""Plugins in the REPL: ctx.ui dialogs and chrome, commands, shortcuts, renderers that fail."""

from __future__ import annotations

from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines

PLUGIN = """
from pydantic import BaseModel

from pi_core import hookimpl
from pi_core.tools.tool import Tool, ToolResult


async def ask(args, ctx):
    colour = await ctx.ui.select("Pick a colour", ["red", "green"])
    sure = await ctx.ui.confirm("Sure?", f"Use {colour}?")
    name = await ctx.ui.input("Your name", "type here")
    notes = await ctx.ui.editor("Notes", "pre")
    late = await ctx.ui.select("Timed question", ["a", "b"], timeout=1)
    ctx.ui.notify(f"answers {colour} {sure} {name} {notes!r} {late}", "info")


async def decorate(args, ctx):
    ctx.ui.set_status("zz", "plugin-status-here")
    ctx.ui.set_widget("above", ["widget-above-line"], "aboveEditor")
    ctx.ui.set_widget("below", ["widget-below-line"], "belowEditor")
    ctx.ui.set_editor_text("text from plugin")
    ctx.ui.notify("careful now", "warning")


def colours(prefix):
    return [{"value": c, "label": c, "description": "a colour"}
            for c in ("amber", "azure", "beige") if c.startswith(prefix)]


class Params(BaseModel):
    what: str = ""


class FragileTool(Tool[Params]):
    name = "fragile"
    label = "fragile"
    description = "A tool whose view is broken"
    parameters = Params

    async def execute(self, call_id, params, signal, on_update, ctx):
        return ToolResult.text(f"fragile output {params.what}")

    def render_call(self, args, theme):
        raise RuntimeError("view exploded")


@hookimpl
def register_commands(register):
    register("ask", ask, description="Ask four questions")
    register("decorate", decorate, description="Status, widgets, editor text")
    register("paint", lambda args, ctx: ctx.ui.notify(f"painted {args}"), description="Paint",
             get_argument_completions=colours)


@hookimpl
def register_shortcuts(register):
    register("ctrl+p", lambda ctx: ctx.ui.notify("plugin shortcut ran"), description="Override")


@hookimpl
def register_tools(register):
    register(FragileTool())
"""


def plugin_file(screen: Screen) -> Path:
    path = screen.home / "ui_plugin.py"
    path.write_text(PLUGIN)
    return path


def test_every_dialog_answers_and_times_out(screen: Screen) -> None:
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.type("/ask")
    screen.keys("Enter")
    screen.wait_for("→ red")
    screen.keys("Down", "Enter")
    shown = screen.wait_for("Use green?")
    assert "→ Yes" in shown
    screen.keys("Enter")
    screen.wait_for("Your name")
    screen.type("Ada")
    screen.keys("Enter")
    screen.wait_for("Notes")
    screen.type("x")
    screen.keys("C-j")
    screen.type("y")
    screen.keys("Enter")
    screen.wait_for("Timed question (1s)")
    shown = screen.wait_for("answers green True Ada")
    assert "'prex\\ny' None" in shown


def test_escape_cancels_a_dialog(screen: Screen) -> None:
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.type("/ask")
    screen.keys("Enter")
    screen.wait_for("→ red")
    screen.keys("Escape")
    screen.wait_for("Use None?")
    screen.keys("Escape")
    screen.wait_for("Your name")
    screen.keys("Escape")
    screen.wait_for("Notes")
    screen.keys("Escape")
    screen.wait_for("answers None False None None None")


def test_status_widgets_notify_and_editor_text(screen: Screen) -> None:
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.type("/decorate")
    screen.keys("Enter")
    # the footer and widgets are redrawn at once, the warning line is printed on the next frame
    shown = screen.wait_for(lambda s: "plugin-status-here" in s and "Warning: careful now" in s)
    assert "widget-above-line" in shown and "widget-below-line" in shown
    lines = stripped_lines(shown)
    assert lines.index("widget-above-line") < lines.index("text from plugin")
    assert lines.index("text from plugin") < lines.index("widget-below-line")


def test_a_plugin_shortcut_wins_over_ctrl_p(screen: Screen) -> None:
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.keys("C-p")
    screen.wait_for("plugin shortcut ran")


def test_slash_menu_lists_commands_with_description_and_source(screen: Screen) -> None:
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.type("/pa")
    shown = screen.wait_for("/paint")
    assert "Paint [" in shown
    screen.keys("Tab")  # takes the entry and closes the menu
    screen.wait_for(lambda s: editor_lines(s) == ["/paint"] and "Paint [" not in s)
    screen.type("a")
    shown = screen.wait_for("azure")
    assert "amber" in shown and "beige" not in shown


def test_builtin_commands_are_in_the_menu(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/se")
    shown = screen.wait_for("/session")
    assert "Show session info and stats [built-in]" in shown


def test_at_searches_project_files_and_honours_gitignore(screen: Screen) -> None:
    (screen.cwd / "src").mkdir()
    (screen.cwd / "src" / "widget_factory.py").write_text("")
    (screen.cwd / "build").mkdir()
    (screen.cwd / "build" / "widget_copy.py").write_text("")
    (screen.cwd / ".gitignore").write_text("build/\n")
    (screen.cwd / ".git").mkdir()  # fd, pi's search, reads .gitignore only in a repository
    screen.start()
    screen.ready()
    screen.type("look at @factory")
    shown = screen.wait_for("src/widget_factory.py")
    assert "widget_copy" not in shown
    screen.keys("Tab")
    screen.wait_for("look at @src/widget_factory.py")


def test_tab_completes_a_path(screen: Screen) -> None:
    (screen.cwd / "package").mkdir()
    screen.start()
    screen.ready()
    screen.type("./pac")
    screen.keys("Tab")
    screen.wait_for("./package/")


def test_a_renderer_that_raises_falls_back_to_plain_text_and_is_reported(screen: Screen) -> None:
    screen.server.queue(
        chat_stream("", tool_calls=[("fragile", {"what": "now"})]), chat_stream("all done")
    )
    screen.start("-e", str(plugin_file(screen)))
    screen.ready()
    screen.type("use it")
    screen.keys("Enter")
    shown = screen.wait_for("all done")
    assert "Warning: renderer fragile.render_call failed (RuntimeError: view exploded)" in shown
    assert "fragile output now" in shown
    assert 'fragile {"what": "now"}' in shown


def test_templates_and_skills_are_in_the_slash_menu(screen: Screen) -> None:
    prompts = screen.agent_dir / "prompts"
    prompts.mkdir()
    (prompts / "review.md").write_text("---\ndescription: Review the diff\n---\nReview $1\n")
    skill = screen.agent_dir / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: tidy\ndescription: Tidy the code\n---\nSteps\n")
    screen.start()
    shown = screen.ready()
    assert "[Prompts] /review" in stripped_lines(shown)
    screen.type("/rev")
    screen.wait_for("Review the diff [prompt]")
    screen.keys("C-c")
    screen.type("/skill:t")
    shown = screen.wait_for("Tidy the code [skill]")
    assert "/skill:tidy" in shown


WORKING_PLUGIN = """
import asyncio

from pi_core import hookimpl


async def slow(args, ctx):
    ctx.ui.set_working_message("Polishing the answer")
    ctx.ui.set_title("custom window title")


@hookimpl
def register_commands(register):
    register("slow", slow, description="Set the working message and the title")
"""


def test_working_message_and_title(screen: Screen) -> None:
    path = screen.home / "working.py"
    path.write_text(WORKING_PLUGIN)
    screen.server.queue(chat_stream("word " * 300, piece=5, chunk_delay=0.05))
    screen.start("-e", str(path))
    screen.ready()
    screen.type("/slow")
    screen.keys("Enter")
    screen.wait_for(lambda s: screen._tmux("display-message", "-p", "#{pane_title}").strip()
                    == "custom window title")  # fmt: skip
    screen.type("talk")
    screen.keys("Enter")
    screen.wait_for("Polishing the answer")
    screen.keys("Escape")
    screen.wait_for("Operation aborted")


def border_colours(screen: Screen) -> list[str]:
    """The escape code in front of the editor's top rule."""
    text = screen._tmux("capture-pane", "-p", "-e")
    return [line.split("─", 1)[0] for line in text.splitlines() if "──────────" in line][:1]


def test_the_editor_border_turns_to_bash_mode_on_a_bang(screen: Screen) -> None:
    screen.start()
    screen.ready()
    normal = border_colours(screen)
    assert normal, screen._tmux("capture-pane", "-p", "-e")
    screen.type("!ls")
    screen.wait_for(lambda s: editor_lines(s) == ["!ls"])
    screen.wait_for(lambda s: border_colours(screen) != normal)
    screen.keys("BSpace", "BSpace", "BSpace")
    screen.wait_for(lambda s: border_colours(screen) == normal)
    screen.keys("BTab")
    screen.wait_for(lambda s: border_colours(screen) != normal)  # another thinking level


RAISING_PLUGIN = """
from pi_core import hookimpl


async def broken(args, ctx):
    await ctx.ui.select("Pick", ["a"], timeout="soon")


@hookimpl
def register_commands(register):
    register("broken", broken, description="A command whose UI call raises")
"""


def test_a_plugin_ui_call_that_raises_is_reported_and_the_repl_goes_on(screen: Screen) -> None:
    path = screen.home / "raising.py"
    path.write_text(RAISING_PLUGIN)
    screen.start("-e", str(path))
    screen.ready()
    screen.type("/broken")
    screen.keys("Enter")
    screen.wait_for("Error:")
    screen.type("still typing")
    screen.wait_for(lambda s: editor_lines(s) == ["still typing"])


def test_a_large_bracketed_paste_shows_a_marker_and_sends_the_text(screen: Screen) -> None:
    screen.server.queue(chat_stream("got the paste"))
    screen.start()
    screen.ready()
    screen.type("look: ")
    screen.paste("\n".join(f"pasted line {n}" for n in range(25)))
    screen.wait_for(lambda s: editor_lines(s) == ["look: [paste #1 +25 lines]"])
    screen.keys("Enter")
    screen.wait_for("got the paste")
    sent = str(screen.server.requests[0].json()["messages"])
    assert "pasted line 0" in sent and "pasted line 24" in sent


WIDGET_PLUGIN = """
from pi_core import hookimpl


@hookimpl
def register_commands(register):
    register("many", lambda args, ctx: ctx.ui.set_widget("w", [f"row {n}" for n in range(15)]),
             description="A tall widget")
"""


def test_a_tall_widget_is_cut_to_ten_lines(screen: Screen) -> None:
    path = screen.home / "widget.py"
    path.write_text(WIDGET_PLUGIN)
    screen.start("-e", str(path))
    screen.ready()
    screen.type("/many")
    screen.keys("Enter")
    shown = screen.wait_for("... (widget truncated)")
    lines = stripped_lines(shown)
    assert "row 9" in lines and "row 10" not in lines


RENDERER_PLUGIN = """
from rich.text import Text

from pi_core import hookimpl


def draw_note(message, options, theme):
    return Text(f"NOTE>> {message.content} <<NOTE")


def post(args, ctx):
    ctx.send_message({"custom_type": "note", "content": f"drawn {args}", "display": True})
    ctx.send_message({"custom_type": "plain", "content": f"undrawn {args}", "display": True})


@hookimpl
def register_commands(register):
    register("post", post, description="Post custom messages")


@hookimpl
def register_message_renderers(register):
    register("note", draw_note)
"""


def test_custom_messages_use_their_registered_renderer(screen: Screen) -> None:
    path = screen.home / "renderer.py"
    path.write_text(RENDERER_PLUGIN)
    screen.start("-e", str(path))
    screen.ready()
    screen.type("/post hello")
    screen.keys("Enter")
    shown = screen.wait_for("NOTE>> drawn hello <<NOTE")
    screen.wait_for("[plain] undrawn hello")
    assert shown
