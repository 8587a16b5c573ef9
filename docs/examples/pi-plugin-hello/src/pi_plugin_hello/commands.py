"""The `/hello` command and the `--shout` flag."""

from __future__ import annotations

from collections.abc import Callable

from pi_core import CommandContext, hookimpl


async def hello(args: str, ctx: CommandContext) -> None:
    """Say hello to whoever the arguments name."""
    greeting = f"hello {args or 'world'}"
    ctx.ui.notify(greeting.upper() if ctx.get_flag("shout") is True else greeting)


@hookimpl
def register_commands(register: Callable[..., None]) -> None:
    """Add `/hello`."""
    register("hello", hello, description="Say hello")


@hookimpl
def register_flags(register: Callable[..., None]) -> None:
    """Add `--shout`: `pi --shout` makes every greeting loud."""
    register("shout", type="boolean", default=False, description="Shout the greetings")
