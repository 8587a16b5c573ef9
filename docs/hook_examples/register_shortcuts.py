"""Ctrl+T in the REPL shows the current model and folder."""

from collections.abc import Callable

from pi_core import ExtensionContext, hookimpl


def where_am_i(ctx: ExtensionContext) -> None:
    model = ctx.model.id if ctx.model is not None else "no model"
    ctx.ui.notify(f"{model} in {ctx.cwd}")


@hookimpl
def register_shortcuts(register: Callable[..., None]) -> None:
    register("ctrl+t", where_am_i, description="Show the model and folder")
