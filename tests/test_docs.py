"""The hook reference in docs/ is generated from the hookspecs and must not fall behind them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pi_core import hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_hook_reference_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(DOCS / "gen_hooks.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_every_hook_is_documented_with_its_semantics() -> None:
    text = (DOCS / "hooks.md").read_text()
    for name, semantics in hookspecs.EVENT_HOOKS.items():
        assert f"| `{name}` | {semantics} |" in text
        assert f"### `{name}`" in text
    for name in hookspecs.REGISTRATION_HOOKS:
        assert f"### `{name}`" in text


def test_every_hookspec_has_a_one_line_docstring() -> None:
    for name in [*hookspecs.EVENT_HOOKS, *hookspecs.REGISTRATION_HOOKS]:
        doc = getattr(hookspecs, name).__doc__
        assert doc and "\n" not in doc.strip(), name


def python_blocks(markdown: str) -> list[str]:
    """Return the ```python blocks of a markdown text."""
    blocks, current, inside = [], [], False
    for line in markdown.splitlines():
        if line.strip() == "```python":
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


async def test_writing_a_plugin_examples_load_and_work(tmp_path: Path) -> None:
    from pi_core import TextContent, make_tool_result_event
    from pi_core.plugins.manager import LoadOptions, PluginManager

    plugins = [
        block
        for block in python_blocks((DOCS / "writing-a-plugin.md").read_text())
        if "@hookimpl" in block and "def test_" not in block
    ]
    assert len(plugins) == 3
    folder = tmp_path / "project" / ".pi" / "extensions"
    folder.mkdir(parents=True)
    for index, code in enumerate(plugins):
        header = "from pi_core import hookimpl\n" if "import" not in code.split("\n")[0] else ""
        (folder / f"example_{index}.py").write_text(header + code)

    manager = PluginManager(folder.parent.parent, agent_dir=tmp_path / "agent")
    manager.load(LoadOptions(installed=False))

    assert manager.errors == []
    assert set(manager.registry.tools) == {"word_count"}
    assert set(manager.registry.commands) == {"hello"}
    event = make_tool_result_event("bash", "c1", {}, [TextContent(text="key sk-123")], None, False)
    patch = await manager.dispatcher.tool_result(event)
    assert patch is not None and patch.content == [TextContent(text="key sk-[hidden]123")]
