"""Two tools: `greet`, made from a typed function, and `word_count`, a pi-shaped Tool."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import Field

from pi_core import ExtensionContext, hookimpl, tool
from pi_plugin_hello.word_count import WordCount


@tool
async def greet(
    ctx: ExtensionContext,
    name: Annotated[str, Field(description="Who to greet")],
    style: Literal["plain", "pirate"] = "plain",
    times: int = 1,
) -> str:
    """Greet someone by name.

    Args:
        style: How to say it.
        times: How many greetings, one per line.
    """
    line = f"Ahoy, {name}!" if style == "pirate" else f"Hello, {name}!"
    if ctx.get_flag("shout") is True:
        line = line.upper()
    ctx.events.emit("hello:greeted", name)
    return "\n".join([line] * times)


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    """Offer both tools to the model."""
    register(greet)
    register(WordCount())
