"""The tool API: a named, described, pydantic-typed action the LLM can call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError

from pi_core.messages.base import WireModel
from pi_core.messages.content import ImageContent, TextContent, UserContent
from pi_core.model_defaults import empty_list
from pi_core.tools.schema import tool_parameters_schema

if TYPE_CHECKING:
    from pi_core.abort import AbortSignal
    from pi_core.plugins.context import ExtensionContext

ParamsT = TypeVar("ParamsT", bound=BaseModel)


class ToolResult(WireModel):
    """What a tool returns: content for the LLM and details for renderers and plugins."""

    content: list[UserContent] = Field(default_factory=empty_list)
    details: Any = None

    @classmethod
    def text(cls, text: str, details: Any = None) -> ToolResult:
        """Build a result holding one text block."""
        return cls(content=[TextContent(text=text)], details=details)

    def text_content(self) -> str:
        """Return the text blocks joined by newlines (images are skipped)."""
        return "\n".join(block.text for block in self.content if isinstance(block, TextContent))


ToolUpdateCallback = Callable[[ToolResult], None]
"""Receives partial results while a tool runs (streamed bash output, progress)."""


class ToolArgumentsError(ValueError):
    """The arguments an LLM sent do not match the tool's parameter schema."""


class Tool(Generic[ParamsT]):
    """A tool: subclass it, set the four attributes, and implement `execute`."""

    name: str
    label: str
    description: str
    parameters: type[ParamsT]
    prompt_snippet: str | None = None
    """One line for the system prompt's tool list; a tool without one is not listed there."""
    prompt_guidelines: tuple[str, ...] = ()
    """Guidelines the system prompt adds while this tool is active."""

    async def execute(
        self,
        call_id: str,
        params: ParamsT,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run the tool; raise an exception to report an error to the LLM."""
        raise NotImplementedError(f"tool {self.name!r} does not implement execute()")

    def render_call(self, args: ParamsT, theme: Any) -> Any | None:
        """Return a renderable for the call in the REPL, or None for the default view."""
        return None

    def render_result(self, result: ToolResult, options: dict[str, bool], theme: Any) -> Any | None:
        """Return a renderable for the result in the REPL, or None for the default view."""
        return None

    def file_operations(self, params: ParamsT) -> dict[str, list[str]]:
        """Return the paths this call reads, writes or edits, as {"read"|"written"|"edited": [...]}.

        Compaction lists them in its summary; tools that touch no files return {}.
        """
        return {}

    def parameters_schema(self) -> dict[str, Any]:
        """Return the JSON schema the LLM sees for this tool's arguments."""
        return tool_parameters_schema(self.parameters)

    def validate_arguments(self, arguments: dict[str, Any]) -> ParamsT:
        """Turn the LLM's JSON arguments into the parameter model, or raise ToolArgumentsError."""
        try:
            return self.parameters.model_validate(arguments)
        except ValidationError as error:
            raise ToolArgumentsError(format_validation_error(self.name, arguments, error)) from None

    def __repr__(self) -> str:
        return f"<Tool {getattr(self, 'name', '?')!r}>"


def format_validation_error(
    tool_name: str, arguments: dict[str, Any], error: ValidationError
) -> str:
    """Describe what was wrong with a tool call's arguments, in the words pi uses."""
    import json

    lines = []
    for item in error.errors():
        path = "/".join(str(part) for part in item["loc"]) or "root"
        lines.append(f"  - {path}: {item['msg']}")
    try:
        received = json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
    except RecursionError:  # nested thousands deep: indented, it would be quadratic in size
        received = _deep_preview(arguments)
    return (
        f'Validation failed for tool "{tool_name}":\n'
        + "\n".join(lines)
        + f"\n\nReceived arguments:\n{received}"
    )


ExecuteFn = Callable[
    [str, Any, "AbortSignal | None", "ToolUpdateCallback | None", "ExtensionContext"],
    Awaitable[ToolResult],
]


class FunctionTool(Tool[ParamsT]):
    """A tool built from a plain async function (see `define_tool`)."""

    def __init__(
        self,
        name: str,
        label: str,
        description: str,
        parameters: type[ParamsT],
        execute: ExecuteFn,
    ) -> None:
        self.name = name
        self.label = label
        self.description = description
        self.parameters = parameters
        self._execute = execute

    async def execute(
        self,
        call_id: str,
        params: ParamsT,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Run the wrapped function."""
        return await self._execute(call_id, params, signal, on_update, ctx)


def define_tool(
    *,
    name: str,
    description: str,
    parameters: type[ParamsT],
    execute: ExecuteFn,
    label: str | None = None,
) -> Tool[ParamsT]:
    """Build a tool from an async `execute(call_id, params, signal, on_update, ctx)` function."""
    return FunctionTool(name, label or name, description, parameters, execute)


__all__ = [
    "FunctionTool",
    "ImageContent",
    "TextContent",
    "Tool",
    "ToolArgumentsError",
    "ToolResult",
    "ToolUpdateCallback",
    "define_tool",
    "format_validation_error",
]


_DEEP_PREVIEW_CHARS = 2000


def _deep_preview(arguments: dict[str, Any]) -> str:
    """Deeply nested arguments as compact JSON, cut to `_DEEP_PREVIEW_CHARS` characters."""
    from pi_core import deep

    text = deep.dumps(arguments, ensure_ascii=False, default=str)
    if len(text) <= _DEEP_PREVIEW_CHARS:
        return text
    return f"{text[:_DEEP_PREVIEW_CHARS]}… ({len(text) - _DEEP_PREVIEW_CHARS} more characters)"
