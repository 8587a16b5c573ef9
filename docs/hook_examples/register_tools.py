"""A `shout` tool the LLM can call: it upper-cases the text it is given."""

from collections.abc import Callable

from pydantic import BaseModel, Field

from pi_core import AbortSignal, ExtensionContext, Tool, ToolResult, ToolUpdateCallback, hookimpl


class ShoutArgs(BaseModel):
    text: str = Field(description="The text to shout")


class Shout(Tool[ShoutArgs]):
    name = "shout"
    description = "Upper-case a piece of text"
    parameters = ShoutArgs  # its JSON schema is what the LLM sees

    async def execute(
        self,
        call_id: str,
        params: ShoutArgs,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        return ToolResult.text(params.text.upper(), details={"length": len(params.text)})


@hookimpl
def register_tools(register: Callable[..., None]) -> None:
    register(Shout())
