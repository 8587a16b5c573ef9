"""`/reload` imports plugins from files and folders afresh; one that fails changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines

PLUGIN = """
from pathlib import Path

from pydantic import BaseModel

from pi_core import hookimpl
from pi_core.events import ToolCallResult
from pi_core.tools.tool import Tool, ToolResult

VERSION = "VERSION_MARK"
LOG = Path(__file__).with_name("events.log")


class Params(BaseModel):
    pass


class Probe(Tool[Params]):
    name = f"probe_{VERSION}"
    label = name
    description = "Says which version of the plugin is loaded"
    parameters = Params

    async def execute(self, call_id, params, signal, on_update, ctx):
        return ToolResult.text(VERSION)


@hookimpl
def register_tools(register):
    register(Probe())


@hookimpl
def register_commands(register):
    register("ver", lambda args, ctx: ctx.ui.notify(f"plugin version {VERSION}"),
             description="Which version is loaded")


@hookimpl
def tool_call(event):
    if event.tool_name == "bash":  # a gate: no shell at all
        return ToolCallResult(block=True, reason=f"gate {VERSION} says no")
    return None


@hookimpl
def session_start(event, ctx):
    ctx.ui.set_status(f"s-{VERSION}", f"status of {VERSION}")
    with LOG.open("a") as log:
        log.write(f"{VERSION} start {event.reason}\\n")


@hookimpl
def session_shutdown(event):
    with LOG.open("a") as log:
        log.write(f"{VERSION} shutdown {event.reason}\\n")
"""


def write_plugin(folder: Path, version: str, extra: str = "") -> Path:
    path = folder / "gate.py"
    path.write_text(PLUGIN.replace("VERSION_MARK", version) + extra)
    return path


def run_command(screen: Screen, command: str, expected: str) -> str:
    screen.type(command)
    screen.keys("Enter")
    return screen.wait_for(expected)


def events(folder: Path) -> list[str]:
    return (folder / "events.log").read_text().splitlines()


def tool_names(screen: Screen) -> list[str]:
    return [tool["function"]["name"] for tool in screen.server.requests[-1].json()["tools"]]


def test_reload_imports_a_changed_plugin_afresh(screen: Screen) -> None:
    folder = screen.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    write_plugin(folder, "v1")
    screen.start()
    screen.ready()
    run_command(screen, "/ver", "plugin version v1")
    screen.wait_for("status of v1")
    write_plugin(folder, "v2")
    run_command(screen, "/reload", "Reloaded ")
    run_command(screen, "/ver", "plugin version v2")
    shown = screen.wait_for("status of v2")
    assert "status of v1" not in shown  # what the old plugin drew is gone
    assert events(folder) == ["v1 start startup", "v1 shutdown reload", "v2 start reload"]
    screen.server.queue(chat_stream("tools seen"))
    run_command(screen, "hello", "tools seen")
    names = tool_names(screen)
    assert "probe_v2" in names and "probe_v1" not in names


def test_a_plugin_that_fails_to_reload_leaves_the_old_one_working(screen: Screen) -> None:
    folder = screen.home / "plugins"
    folder.mkdir()
    path = write_plugin(folder, "v1")
    screen.start("-e", str(path))
    screen.ready()
    path.write_text("def broken(:\n")  # a syntax error
    shown = run_command(screen, "/reload", "nothing was reloaded")
    assert f"Error: reload failed: {path}: SyntaxError" in " ".join(stripped_lines(shown))
    write_plugin(folder, "v3", extra="\nraise RuntimeError('boom at import')\n")
    run_command(screen, "/reload", "RuntimeError: boom at import")
    write_plugin(folder, "v4", extra="\ndef register_flags(register):\n    raise ValueError('x')\n")
    path.write_text(path.read_text().replace("def register_flags", "@hookimpl\ndef register_flags"))
    run_command(screen, "/reload", "ValueError: x")
    run_command(screen, "/ver", "plugin version v1")  # the old plugin, still registered
    assert events(folder) == ["v1 start startup"]  # no shutdown: nothing was swapped
    # the old gate still blocks: the bash call never runs
    marker = screen.cwd / "ran.txt"
    screen.server.queue(
        chat_stream("", tool_calls=[("bash", {"command": f"touch {marker}"})]),
        chat_stream("after the gate"),
    )
    run_command(screen, "go", "after the gate")
    assert not marker.exists()
    results = [m for m in screen.server.requests[-1].json()["messages"] if m["role"] == "tool"]
    assert "gate v1 says no" in json.dumps(results)
    assert "probe_v1" in tool_names(screen)


EXTRAS = """

@hookimpl(specname="session_start")
def draw_extras(event, ctx):
    ctx.ui.set_widget("extras", ["widget of the old plugin"])
    ctx.ui.on_terminal_input(lambda data: {"consume": True} if data == "%" else None)
"""


def test_reload_takes_away_what_the_old_plugin_set_in_the_ui(screen: Screen) -> None:
    folder = screen.cwd / ".pi" / "extensions"
    folder.mkdir(parents=True)
    write_plugin(folder, "v1", extra=EXTRAS)
    screen.start()
    screen.ready()
    screen.wait_for("widget of the old plugin")
    screen.type("a%b")
    screen.wait_for(lambda s: "ab" in editor_text(s))
    assert "%" not in editor_text(screen.text())  # the old plugin's listener took the key
    screen.keys("C-c")
    screen.wait_for(lambda s: editor_text(s) == "")
    write_plugin(folder, "v2")
    shown = run_command(screen, "/reload", "Reloaded ")
    screen.wait_for("status of v2")
    screen.type("a%b")
    shown = screen.wait_for(lambda s: "a%b" in editor_text(s))
    assert "widget of the old plugin" not in shown.split("Reloaded ")[-1]


def editor_text(text: str) -> str:
    return " ".join(editor_lines(text)).strip()
