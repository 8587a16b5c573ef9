"""Parameter and details models of the seven built-in tools: pi 0.73.1's schemas (names, types,
required fields), described in this project's words."""

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

    path: str = Field(
        description="File to open, as an absolute path or relative to the working directory"
    )
    offset: Number | None = Field(
        default=None, description="First line to return; line 1 is the top of the file"
    )
    limit: Number | None = Field(default=None, description="How many lines to return at most")


class WriteToolInput(ToolInput):
    """Arguments of `write`."""

    path: str = Field(
        description="File to create or replace, absolute or relative to the working directory"
    )
    content: str = Field(description="The complete new text of the file")


class EditReplacement(StrictToolInput):
    """One exact replacement inside an `edit` call."""

    old_text: str = Field(
        description=(
            "The text to replace, copied exactly. It has to occur once in the file as it was "
            "before the call and share nothing with the other edits[].oldText of this call."
        )
    )
    new_text: str = Field(description="What oldText becomes.")


class EditToolInput(StrictToolInput):
    """Arguments of `edit`."""

    path: str = Field(description="File to change, absolute or relative to the working directory")
    edits: list[EditReplacement] = Field(
        description=(
            "The replacements, at least one. All are looked up in the file as it was before "
            "the call, never in a partly edited version, so they must not overlap or nest; "
            "changes to one block or to neighbouring lines belong in a single edit."
        )
    )


class BashToolInput(ToolInput):
    """Arguments of `bash`."""

    command: str = Field(description="The command line bash runs")
    timeout: Number | None = Field(
        default=None,
        description="Seconds before the command is killed; without it there is no limit",
    )


class GrepToolInput(ToolInput):
    """Arguments of `grep`."""

    pattern: str = Field(
        description="What to look for: a regular expression, or plain text with literal"
    )
    path: str | None = Field(
        default=None,
        description="Folder or single file to search; the working directory when left out",
    )
    glob: str | None = Field(
        default=None,
        description="Only search files matching this glob, such as '*.py' or 'tests/**/*.py'",
    )
    ignore_case: bool | None = Field(
        default=None, description="Ignore upper and lower case when true (false when left out)"
    )
    literal: bool | None = Field(
        default=None,
        description=(
            "Match pattern as plain text, not as a regular expression, when true "
            "(false when left out)"
        ),
    )
    context: Number | None = Field(
        default=None,
        description="Lines of context to add on each side of a match (0 when left out)",
    )
    limit: Number | None = Field(
        default=None, description="Stop after this many matches (100 when left out)"
    )


class FindToolInput(ToolInput):
    """Arguments of `find`."""

    pattern: str = Field(
        description="Glob the paths must match, such as '*.py', '**/*.toml' or 'src/**/test_*.py'"
    )
    path: str | None = Field(
        default=None, description="Folder to look under; the working directory when left out"
    )
    limit: Number | None = Field(
        default=None, description="Stop after this many paths (1000 when left out)"
    )


class LsToolInput(ToolInput):
    """Arguments of `ls`."""

    path: str | None = Field(
        default=None,
        description="Folder whose entries to show; the working directory when left out",
    )
    limit: Number | None = Field(
        default=None, description="Stop after this many entries (500 when left out)"
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
