"""Parameter and details models of the seven built-in tools, with pi 0.73.1's schemas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, WithJsonSchema

from pi_core.messages.base import WireModel

# pi declares these as JSON "number"; Python code wants whole numbers.
Number = Annotated[int, WithJsonSchema({"type": "number"})]


class ToolInput(WireModel):
    """Base of built-in tool parameters: unknown fields are dropped, as pi's schemas allow."""

    model_config = ConfigDict(extra="ignore")


class StrictToolInput(ToolInput):
    """Parameters whose schema says `additionalProperties: false` (pi's `edit`)."""

    model_config = ConfigDict(extra="forbid")


class ReadToolInput(ToolInput):
    """Arguments of `read`."""

    path: str = Field(description="Path to the file to read (relative or absolute)")
    offset: Number | None = Field(
        default=None, description="Line number to start reading from (1-indexed)"
    )
    limit: Number | None = Field(default=None, description="Maximum number of lines to read")


class WriteToolInput(ToolInput):
    """Arguments of `write`."""

    path: str = Field(description="Path to the file to write (relative or absolute)")
    content: str = Field(description="Content to write to the file")


class EditReplacement(StrictToolInput):
    """One exact replacement inside an `edit` call."""

    old_text: str = Field(
        description=(
            "Exact text for one targeted replacement. It must be unique in the original file "
            "and must not overlap with any other edits[].oldText in the same call."
        )
    )
    new_text: str = Field(description="Replacement text for this targeted edit.")


class EditToolInput(StrictToolInput):
    """Arguments of `edit`."""

    path: str = Field(description="Path to the file to edit (relative or absolute)")
    edits: list[EditReplacement] = Field(
        description=(
            "One or more targeted replacements. Each edit is matched against the original "
            "file, not incrementally. Do not include overlapping or nested edits. If two "
            "changes touch the same block or nearby lines, merge them into one edit instead."
        )
    )


class BashToolInput(ToolInput):
    """Arguments of `bash`."""

    command: str = Field(description="Bash command to execute")
    timeout: Number | None = Field(
        default=None, description="Timeout in seconds (optional, no default timeout)"
    )


class GrepToolInput(ToolInput):
    """Arguments of `grep`."""

    pattern: str = Field(description="Search pattern (regex or literal string)")
    path: str | None = Field(
        default=None, description="Directory or file to search (default: current directory)"
    )
    glob: str | None = Field(
        default=None,
        description="Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'",
    )
    ignore_case: bool | None = Field(
        default=None, description="Case-insensitive search (default: false)"
    )
    literal: bool | None = Field(
        default=None,
        description="Treat pattern as literal string instead of regex (default: false)",
    )
    context: Number | None = Field(
        default=None,
        description="Number of lines to show before and after each match (default: 0)",
    )
    limit: Number | None = Field(
        default=None, description="Maximum number of matches to return (default: 100)"
    )


class FindToolInput(ToolInput):
    """Arguments of `find`."""

    pattern: str = Field(
        description="Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'"
    )
    path: str | None = Field(
        default=None, description="Directory to search in (default: current directory)"
    )
    limit: Number | None = Field(
        default=None, description="Maximum number of results (default: 1000)"
    )


class LsToolInput(ToolInput):
    """Arguments of `ls`."""

    path: str | None = Field(
        default=None, description="Directory to list (default: current directory)"
    )
    limit: Number | None = Field(
        default=None, description="Maximum number of entries to return (default: 500)"
    )


class TruncationResult(WireModel):
    """How a tool's output was cut to fit the line and byte limits."""

    content: str
    truncated: bool
    truncated_by: Literal["lines", "bytes"] | None = None
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    last_line_partial: bool = False
    first_line_exceeds_limit: bool = False
    max_lines: int
    max_bytes: int


class ReadToolDetails(WireModel):
    """Details of a `read` result."""

    truncation: TruncationResult | None = None


class BashToolDetails(WireModel):
    """Details of a `bash` result."""

    truncation: TruncationResult | None = None
    full_output_path: str | None = None


class EditToolDetails(WireModel):
    """Details of an `edit` result: the unified diff for renderers."""

    diff: str
    first_changed_line: int | None = None


class GrepToolDetails(WireModel):
    """Details of a `grep` result."""

    truncation: TruncationResult | None = None
    match_limit_reached: int | None = None
    lines_truncated: bool | None = None


class FindToolDetails(WireModel):
    """Details of a `find` result."""

    truncation: TruncationResult | None = None
    result_limit_reached: int | None = None


class LsToolDetails(WireModel):
    """Details of an `ls` result."""

    truncation: TruncationResult | None = None
    entry_limit_reached: int | None = None


BUILTIN_TOOL_INPUTS: dict[str, type[ToolInput]] = {
    "read": ReadToolInput,
    "bash": BashToolInput,
    "edit": EditToolInput,
    "write": WriteToolInput,
    "grep": GrepToolInput,
    "find": FindToolInput,
    "ls": LsToolInput,
}
"""Built-in tool name → its parameter model."""

BUILTIN_TOOL_DETAILS: dict[str, type[WireModel] | None] = {
    "read": ReadToolDetails,
    "bash": BashToolDetails,
    "edit": EditToolDetails,
    "write": None,
    "grep": GrepToolDetails,
    "find": FindToolDetails,
    "ls": LsToolDetails,
}
"""Built-in tool name → its details model (`write` has none)."""
