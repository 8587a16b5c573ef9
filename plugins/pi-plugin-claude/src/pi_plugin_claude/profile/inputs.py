"""The input schemas of Claude Code's tools, field for field, so hosts render the calls."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ClaudeInput(BaseModel):
    """Base of Claude tool inputs: snake_case names as Claude sends them; aliases for `-B` …."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    def as_claude(self) -> dict[str, Any]:
        """The input as Claude's JSON (aliases, unset optional fields left out)."""
        return self.model_dump(by_alias=True, exclude_none=True)


class BashInput(ClaudeInput):
    """Arguments of `Bash`."""

    command: str = Field(description="The command to execute")
    timeout: float | None = Field(
        default=None, description="Optional timeout in milliseconds (max 600000)"
    )
    description: str | None = Field(
        default=None,
        description="Clear, concise description of what this command does in 5-10 words",
    )
    run_in_background: bool | None = Field(
        default=None, description="Set to true to run this command in the background."
    )


class ReadInput(ClaudeInput):
    """Arguments of `Read`."""

    file_path: str = Field(description="The absolute path to the file to read")
    offset: int | None = Field(
        default=None,
        description="The line number to start reading from. Only provide if the file is too "
        "large to read at once",
    )
    limit: int | None = Field(
        default=None,
        description="The number of lines to read. Only provide if the file is too large to "
        "read at once.",
    )


class WriteInput(ClaudeInput):
    """Arguments of `Write`."""

    file_path: str = Field(
        description="The absolute path to the file to write (must be absolute, not relative)"
    )
    content: str = Field(description="The content to write to the file")


class EditInput(ClaudeInput):
    """Arguments of `Edit`."""

    file_path: str = Field(description="The absolute path to the file to modify")
    old_string: str = Field(description="The text to replace")
    new_string: str = Field(
        description="The text to replace it with (must be different from old_string)"
    )
    replace_all: bool | None = Field(
        default=False, description="Replace all occurrences of old_string (default false)"
    )


class MultiEditOperation(ClaudeInput):
    """One edit of a `MultiEdit` call."""

    old_string: str = Field(description="The text to replace")
    new_string: str = Field(description="The text to replace it with")
    replace_all: bool | None = Field(
        default=False, description="Replace all occurrences of old_string (default false)."
    )


class MultiEditInput(ClaudeInput):
    """Arguments of `MultiEdit`."""

    file_path: str = Field(description="The absolute path to the file to modify")
    edits: list[MultiEditOperation] = Field(
        min_length=1, description="Array of edit operations to perform sequentially on the file"
    )


class GlobInput(ClaudeInput):
    """Arguments of `Glob`."""

    pattern: str = Field(description="The glob pattern to match files against")
    path: str | None = Field(
        default=None,
        description="The directory to search in. If not specified, the current working "
        "directory will be used.",
    )


class GrepInput(ClaudeInput):
    """Arguments of `Grep`."""

    pattern: str = Field(
        description="The regular expression pattern to search for in file contents"
    )
    path: str | None = Field(
        default=None,
        description="File or directory to search in (rg PATH). Defaults to current working "
        "directory.",
    )
    glob: str | None = Field(
        default=None,
        description='Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob',
    )
    output_mode: Literal["content", "files_with_matches", "count"] | None = Field(
        default=None,
        description='Output mode: "content" shows matching lines, "files_with_matches" shows '
        'file paths, "count" shows match counts. Defaults to "files_with_matches".',
    )
    before: int | None = Field(
        default=None, alias="-B", description="Number of lines to show before each match"
    )
    after: int | None = Field(
        default=None, alias="-A", description="Number of lines to show after each match"
    )
    around: int | None = Field(
        default=None, alias="-C", description="Number of lines to show before and after"
    )
    context: int | None = Field(
        default=None, description="Number of lines to show before and after each match"
    )
    line_numbers: bool | None = Field(
        default=None, alias="-n", description="Show line numbers in output. Defaults to true."
    )
    ignore_case: bool | None = Field(
        default=None, alias="-i", description="Case insensitive search (rg -i)"
    )
    only_matching: bool | None = Field(
        default=None,
        alias="-o",
        description="Output just the matched text, one match per line (rg -o). Only with "
        'output_mode "content"; ignored otherwise. Defaults to false.',
    )
    type: str | None = Field(default=None, description="File type to search (rg --type)")
    head_limit: int | None = Field(
        default=None,
        description='Limit output to first N lines/entries, equivalent to "| head -N". '
        "Defaults to 250; 0 for unlimited.",
    )
    offset: int | None = Field(
        default=None, description="Skip first N lines/entries before applying head_limit"
    )
    multiline: bool | None = Field(
        default=None, description="Enable multiline mode (rg -U --multiline-dotall)"
    )


class LSInput(ClaudeInput):
    """Arguments of `LS`."""

    path: str = Field(description="The absolute path to the directory to list")
    ignore: list[str] | None = Field(default=None, description="List of glob patterns to ignore")


class TodoItem(ClaudeInput):
    """One entry of the todo list."""

    content: str = Field(min_length=1)
    status: Literal["pending", "in_progress", "completed"]
    activeForm: str = Field(min_length=1)


class TodoWriteInput(ClaudeInput):
    """Arguments of `TodoWrite`."""

    todos: list[TodoItem] = Field(description="The updated todo list")


class ExitPlanModeInput(ClaudeInput):
    """Arguments of `ExitPlanMode`."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    plan: str | None = Field(
        default=None, description="The plan you came up with, that you want to run by the user"
    )


class TaskInput(ClaudeInput):
    """Arguments of `Task`."""

    description: str = Field(description="A short (3-5 word) description of the task")
    prompt: str = Field(description="The task for the agent to perform")
    subagent_type: str | None = Field(
        default=None, description="The type of specialized agent to use for this task"
    )
