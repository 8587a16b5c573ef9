"""A `/words` command that tells the user how many words its arguments hold."""

from collections.abc import Callable

from pi_core import CommandContext, hookimpl


async def count_words(args: str, ctx: CommandContext) -> None:
    ctx.ui.notify(f"{len(args.split())} words")


@hookimpl
def register_commands(register: Callable[..., None]) -> None:
    register("words", count_words, description="Count the words after /words")
