"""The `/` menu lists commands in pi's order: pi's built-ins in its own order, then prompt
templates, plugin commands and skills (pi 0.73.1's interactive mode)."""

from __future__ import annotations

from pi_core.builtin_commands import BUILTIN_COMMAND_NAMES
from pi_core.modes.interactive.commands import BUILTINS
from tests.interactive.conftest import Screen, stripped_lines

PI_FIRST_ROWS = ["settings", "model", "scoped-models", "export", "import"]
"""What pi 0.73.1 shows when `/` is typed in an empty editor (its menu has five rows)."""

COMMAND_PLUGIN = """
from pi_core import hookimpl


async def noop(args, ctx):
    ctx.ui.notify(args)


@hookimpl
def register_commands(register):
    register("comnd-q", noop, description="A plugin command")
"""


def menu_names(screen_text: str) -> list[str]:
    """The command names in the `/` menu's rows, which are drawn below the editor."""
    lines = stripped_lines(screen_text)
    rules = [i for i, line in enumerate(lines) if line.startswith("──────────")]
    return [line.split()[0][1:] for line in lines[rules[-1] + 1 :] if line.startswith("/")]


def test_the_table_keeps_pis_order() -> None:
    assert list(BUILTINS) == list(BUILTIN_COMMAND_NAMES)


def test_a_slash_shows_pis_first_built_ins(screen: Screen) -> None:
    screen.start()
    screen.ready()
    screen.type("/")
    shown = screen.wait_for(lambda s: len(menu_names(s)) == len(PI_FIRST_ROWS))
    assert menu_names(shown) == PI_FIRST_ROWS


def test_templates_come_before_plugin_commands_and_skills_last(screen: Screen) -> None:
    # "q" scores these three names alike (a boundary letter at the same place), so the menu
    # shows them in its table's order; `/quit`, which starts with the letter, ranks first.
    prompts = screen.agent_dir / "prompts"
    prompts.mkdir()
    (prompts / "templ-q.md").write_text("---\ndescription: A template\n---\nBody\n")
    skill = screen.agent_dir / "skills" / "q"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: q\ndescription: A skill\n---\nSteps\n")
    plugin = screen.cwd / "comnd.py"
    plugin.write_text(COMMAND_PLUGIN)
    screen.start("-e", str(plugin))
    screen.ready()
    screen.type("/q")
    shown = screen.wait_for(lambda s: "skill:q" in menu_names(s))
    assert menu_names(shown) == ["quit", "templ-q", "comnd-q", "skill:q"]
