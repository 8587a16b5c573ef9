"""Expand `:fix` to a full request, and handle `:ping` without calling the LLM."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import InputEvent, InputHandled, InputResult, InputTransform


@hookimpl
def input(event: InputEvent, ctx: ExtensionContext) -> InputResult | None:
    if event.text == ":ping":
        ctx.ui.notify("pong")
        return InputHandled()
    if event.text.startswith(":fix "):
        return InputTransform(text="Find and fix the bug: " + event.text.removeprefix(":fix "))
    return None  # unchanged
