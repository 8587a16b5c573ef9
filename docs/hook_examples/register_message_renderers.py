"""Messages of custom type `todo` show in the REPL as a check box and their text."""

from collections.abc import Callable
from typing import Any

from pi_core import hookimpl
from pi_core.messages import CustomMessage


def render_todo(message: CustomMessage, options: dict[str, Any], theme: Any) -> str:
    text = message.content if isinstance(message.content, str) else "(attachment)"
    return f"[ ] {text}"


@hookimpl
def register_message_renderers(register: Callable[..., None]) -> None:
    register("todo", render_todo)
