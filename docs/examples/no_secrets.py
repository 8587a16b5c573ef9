"""Hide anything that looks like an API key from the model."""

from __future__ import annotations

from pi_core import TextContent, ToolResultEvent, ToolResultPatch, hookimpl


@hookimpl
def tool_result(event: ToolResultEvent) -> ToolResultPatch | None:
    """Rewrite "sk-..." in every tool result before the model reads it."""
    text = "\n".join(block.text for block in event.content if isinstance(block, TextContent))
    if "sk-" not in text:
        return None
    return ToolResultPatch(content=[TextContent(text=text.replace("sk-", "sk-[hidden]"))])
