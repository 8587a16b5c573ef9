"""tool_call and tool_result: one variant per built-in tool, and one for custom tools."""

from typing import Any, Literal

from pydantic import BaseModel, Field

from pi_core.messages.base import StrictWireModel, WireModel
from pi_core.messages.content import UserContent
from pi_core.model_defaults import empty_list
from pi_core.tools.inputs import (
    BashToolDetails,
    BashToolInput,
    EditToolDetails,
    EditToolInput,
    FindToolDetails,
    FindToolInput,
    GrepToolDetails,
    GrepToolInput,
    LsToolDetails,
    LsToolInput,
    ReadToolDetails,
    ReadToolInput,
    WriteToolInput,
)


class ToolCallEvent(WireModel):
    """A tool is about to run; mutate `input` to patch its arguments, or return block."""

    type: Literal["tool_call"] = "tool_call"
    tool_call_id: str
    tool_name: str
    input: Any


class BashToolCallEvent(ToolCallEvent):
    """`bash` is about to run."""

    tool_name: Literal["bash"] = "bash"
    input: BashToolInput


class ReadToolCallEvent(ToolCallEvent):
    """`read` is about to run."""

    tool_name: Literal["read"] = "read"
    input: ReadToolInput


class EditToolCallEvent(ToolCallEvent):
    """`edit` is about to run."""

    tool_name: Literal["edit"] = "edit"
    input: EditToolInput


class WriteToolCallEvent(ToolCallEvent):
    """`write` is about to run."""

    tool_name: Literal["write"] = "write"
    input: WriteToolInput


class GrepToolCallEvent(ToolCallEvent):
    """`grep` is about to run."""

    tool_name: Literal["grep"] = "grep"
    input: GrepToolInput


class FindToolCallEvent(ToolCallEvent):
    """`find` is about to run."""

    tool_name: Literal["find"] = "find"
    input: FindToolInput


class LsToolCallEvent(ToolCallEvent):
    """`ls` is about to run."""

    tool_name: Literal["ls"] = "ls"
    input: LsToolInput


class CustomToolCallEvent(ToolCallEvent):
    """A plugin's tool is about to run; `input` is its parameter model."""


class ToolCallResult(StrictWireModel):
    """`block=True` stops the tool; `reason` is what the LLM is told."""

    block: bool = False
    reason: str | None = None


class ToolResultEvent(WireModel):
    """A tool finished; plugins may patch content, details and is_error in turn."""

    type: Literal["tool_result"] = "tool_result"
    tool_call_id: str
    tool_name: str
    input: Any
    content: list[UserContent] = Field(default_factory=empty_list)
    details: Any = None
    is_error: bool = False


class BashToolResultEvent(ToolResultEvent):
    """`bash` finished."""

    tool_name: Literal["bash"] = "bash"
    details: BashToolDetails | None = None


class ReadToolResultEvent(ToolResultEvent):
    """`read` finished."""

    tool_name: Literal["read"] = "read"
    details: ReadToolDetails | None = None


class EditToolResultEvent(ToolResultEvent):
    """`edit` finished."""

    tool_name: Literal["edit"] = "edit"
    details: EditToolDetails | None = None


class WriteToolResultEvent(ToolResultEvent):
    """`write` finished (it has no details)."""

    tool_name: Literal["write"] = "write"
    details: None = None


class GrepToolResultEvent(ToolResultEvent):
    """`grep` finished."""

    tool_name: Literal["grep"] = "grep"
    details: GrepToolDetails | None = None


class FindToolResultEvent(ToolResultEvent):
    """`find` finished."""

    tool_name: Literal["find"] = "find"
    details: FindToolDetails | None = None


class LsToolResultEvent(ToolResultEvent):
    """`ls` finished."""

    tool_name: Literal["ls"] = "ls"
    details: LsToolDetails | None = None


class CustomToolResultEvent(ToolResultEvent):
    """A plugin's tool finished."""


class ToolResultPatch(StrictWireModel):
    """Fields a tool_result impl replaces; None leaves a field as it was."""

    content: list[UserContent] | None = None
    details: Any = None
    is_error: bool | None = None


_CALL_VARIANTS: dict[str, type[ToolCallEvent]] = {
    "bash": BashToolCallEvent,
    "read": ReadToolCallEvent,
    "edit": EditToolCallEvent,
    "write": WriteToolCallEvent,
    "grep": GrepToolCallEvent,
    "find": FindToolCallEvent,
    "ls": LsToolCallEvent,
}

_RESULT_VARIANTS: dict[str, type[ToolResultEvent]] = {
    "bash": BashToolResultEvent,
    "read": ReadToolResultEvent,
    "edit": EditToolResultEvent,
    "write": WriteToolResultEvent,
    "grep": GrepToolResultEvent,
    "find": FindToolResultEvent,
    "ls": LsToolResultEvent,
}


def make_tool_call_event(tool_name: str, tool_call_id: str, input: BaseModel) -> ToolCallEvent:
    """Build the tool_call variant that matches the tool (built-in inputs are checked)."""
    variant = _CALL_VARIANTS.get(tool_name)
    if variant is not None and isinstance(input, variant.model_fields["input"].annotation):  # type: ignore[arg-type]
        return variant(tool_call_id=tool_call_id, input=input)
    return CustomToolCallEvent(tool_call_id=tool_call_id, tool_name=tool_name, input=input)


def make_tool_result_event(
    tool_name: str,
    tool_call_id: str,
    input: Any,
    content: list[Any],
    details: Any,
    is_error: bool,
) -> ToolResultEvent:
    """Build the tool_result variant that matches the tool; odd details fall back to custom."""
    fields: dict[str, Any] = {
        "tool_call_id": tool_call_id,
        "input": input,
        "content": content,
        "details": details,
        "is_error": is_error,
    }
    variant = _RESULT_VARIANTS.get(tool_name)
    if variant is not None:
        try:
            return variant(**fields)
        except ValueError:
            pass
    return CustomToolResultEvent(tool_name=tool_name, **fields)
