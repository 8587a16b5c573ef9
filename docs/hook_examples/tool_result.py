"""Hide anything that looks like an OpenAI key in the output of bash before the LLM sees it."""

import re

from pi_core import TextContent, hookimpl
from pi_core.events import BashToolResultEvent, ToolResultEvent, ToolResultPatch

KEY = re.compile(r"sk-[A-Za-z0-9_-]{8,}")


@hookimpl
def tool_result(event: ToolResultEvent) -> ToolResultPatch | None:
    if not isinstance(event, BashToolResultEvent):
        return None
    content = [
        TextContent(text=KEY.sub("sk-…", block.text)) if isinstance(block, TextContent) else block
        for block in event.content
    ]
    return ToolResultPatch(content=content) if content != event.content else None
