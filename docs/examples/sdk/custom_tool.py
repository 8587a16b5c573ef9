"""A custom tool and a tool_call guard, given in code rather than as installed plugins.

Run: python docs/examples/sdk/custom_tool.py
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel

from pi_core import SessionManager, Tool, ToolCallResult, ToolResult, create_agent_session, hookimpl
from pi_core.messages import TextContent


class WeatherInput(BaseModel):
    city: str


class WeatherTool(Tool[WeatherInput]):
    name = "weather"
    label = "weather"
    description = "Current weather for a city."
    parameters = WeatherInput

    async def execute(self, call_id: str, params: WeatherInput, signal: Any, on_update: Any,
                      ctx: Any) -> ToolResult:  # fmt: skip
        return ToolResult(content=[TextContent(text=f"Sunny in {params.city}, 21°C")])


@hookimpl
def tool_call(event: Any) -> ToolCallResult | None:
    """Refuse shell commands that delete things."""
    if event.tool_name == "bash" and "rm " in event.input.command:
        return ToolCallResult(block=True, reason="Deleting files is not allowed in this session")
    return None


async def main() -> None:
    session = await create_agent_session(
        session=SessionManager.in_memory(),
        custom_tools=[WeatherTool()],
        plugins=[SimpleNamespace(tool_call=tool_call)],
    )
    await session.prompt("What's the weather in Lisbon?")
    print(session.get_last_assistant_text())
    await session.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
