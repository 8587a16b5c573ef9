"""A plugin file with a `@tool` function, loaded with `-e` by `pi -p` against the fake model."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

PLUGIN = '''
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from pi_core import hookimpl, tool

if TYPE_CHECKING:
    from pi_core import ExtensionContext


@tool
async def add(
    a: int, b: Annotated[int, Field(description="The second number")], ctx: ExtensionContext
) -> str:
    """Add two whole numbers."""
    return f"{a} + {b} = {a + b} (in {ctx.cwd})"


@hookimpl
def register_tools(register):
    register(add)
'''


def test_a_decorated_tool_is_offered_called_with_coerced_arguments_and_answered(
    cli: Cli, tmp_path: Path
) -> None:
    plugin = tmp_path / "adder.py"
    plugin.write_text(PLUGIN)
    cli.server.queue(
        chat_stream(tool_calls=[("add", {"a": "2", "b": 3, "unknown": True})]),
        chat_stream("done"),
    )

    result = cli.run("-e", str(plugin), "-p", "add 2 and 3")

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "done"
    first, second = (request.json() for request in cli.server.requests)
    offered = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert offered["add"]["description"] == "Add two whole numbers."
    assert offered["add"]["parameters"] == {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "integer", "description": "The second number"},
        },
        "required": ["a", "b"],
    }
    answers = [m for m in second["messages"] if m["role"] == "tool"]
    assert [a["content"] for a in answers] == [f"2 + 3 = 5 (in {cli.cwd})"]


def test_arguments_the_signature_refuses_reach_the_model_as_an_error(
    cli: Cli, tmp_path: Path
) -> None:
    plugin = tmp_path / "adder.py"
    plugin.write_text(PLUGIN)
    cli.server.queue(chat_stream(tool_calls=[("add", {"a": "two"})]), chat_stream("sorry"))

    result = cli.run("-e", str(plugin), "-p", "add")

    assert result.returncode == 0, result.stderr
    second = cli.server.requests[1].json()
    (answer,) = [m for m in second["messages"] if m["role"] == "tool"]
    text = answer["content"] if isinstance(answer["content"], str) else json.dumps(answer)
    assert 'Validation failed for tool "add"' in text
    assert "a: Input should be a valid integer" in text
    assert "b: Field required" in text
