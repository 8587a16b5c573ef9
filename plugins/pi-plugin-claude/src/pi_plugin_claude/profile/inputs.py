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

    command: str = Field(description="The command line to run")
    timeout: float | None = Field(
        default=None, description="Milliseconds before the command is stopped (600000 at most)"
    )
    description: str | None = Field(
        default=None,
        description="What the command is for, in a handful of words (about 5 to 10)",
    )
    run_in_background: bool | None = Field(
        default=None, description="true runs the command detached; its output goes to a file"
    )


class ReadInput(ClaudeInput):
    """Arguments of `Read`."""

    file_path: str = Field(description="Absolute path of the file to return")
    offset: int | None = Field(
        default=None,
        description="First line to return (counting from 1); give it only for a file too long "
        "for one call",
    )
    limit: int | None = Field(
        default=None,
        description="How many lines to return; give it only for a file too long for one call",
    )


class WriteInput(ClaudeInput):
    """Arguments of `Write`."""

    file_path: str = Field(
        description="Absolute path of the file to save (a relative path is refused)"
    )
    content: str = Field(description="The file's complete new text")


class EditInput(ClaudeInput):
    """Arguments of `Edit`."""

    file_path: str = Field(description="Absolute path of the file to change")
    old_string: str = Field(description="Exact text to look for")
    new_string: str = Field(
        description="Text to put in its place; it has to differ from old_string"
    )
    replace_all: bool | None = Field(
        default=False, description="true changes every occurrence of old_string (false by default)"
    )


class MultiEditOperation(ClaudeInput):
    """One edit of a `MultiEdit` call."""

    old_string: str = Field(description="Exact text to look for")
    new_string: str = Field(description="Text to put in its place")
    replace_all: bool | None = Field(
        default=False, description="true changes every occurrence of old_string (false by default)"
    )


class MultiEditInput(ClaudeInput):
    """Arguments of `MultiEdit`."""

    file_path: str = Field(description="Absolute path of the file to change")
    edits: list[MultiEditOperation] = Field(
        min_length=1, description="The edits, at least one, applied one after another"
    )


class GlobInput(ClaudeInput):
    """Arguments of `Glob`."""

    pattern: str = Field(description="Glob that file paths have to match")
    path: str | None = Field(
        default=None,
        description="Folder to look under; the working directory when left out",
    )


class GrepInput(ClaudeInput):
    """Arguments of `Grep`."""

    pattern: str = Field(description="Regular expression to look for inside files")
    path: str | None = Field(
        default=None,
        description="File or folder to search (rg's PATH); the working directory when left out",
    )
    glob: str | None = Field(
        default=None,
        description="Only search files matching this glob, such as '*.py' or '*.{c,h}' (rg --glob)",
    )
    output_mode: Literal["content", "files_with_matches", "count"] | None = Field(
        default=None,
        description="What to return: 'content' for the matching lines, 'files_with_matches' "
        "(the default) for the paths of matching files, 'count' for matches per file",
    )
    before: int | None = Field(
        default=None, alias="-B", description="Lines of context to add above a match"
    )
    after: int | None = Field(
        default=None, alias="-A", description="Lines of context to add below a match"
    )
    around: int | None = Field(
        default=None, alias="-C", description="Lines of context to add on both sides of a match"
    )
    context: int | None = Field(
        default=None, description="Lines of context on both sides of a match (same as -C)"
    )
    line_numbers: bool | None = Field(
        default=None, alias="-n", description="Prefix lines with their numbers (true by default)"
    )
    ignore_case: bool | None = Field(
        default=None, alias="-i", description="Ignore upper and lower case (rg -i)"
    )
    type: str | None = Field(
        default=None, description="Only search this kind of file, by rg's type name (rg --type)"
    )
    only_matching: bool | None = Field(
        default=None,
        alias="-o",
        description="Print only the matched part of each line, one match per line (rg -o); "
        "used with output_mode 'content' and ignored otherwise; false by default",
    )
    head_limit: int | None = Field(
        default=None,
        description="Keep only the first N lines or entries, like piping to head -N; 250 when "
        "left out, 0 for no limit",
    )
    offset: int | None = Field(
        default=None, description="Drop this many lines or entries before head_limit applies"
    )
    multiline: bool | None = Field(
        default=None, description="Let matches span lines (rg -U --multiline-dotall)"
    )


class LSInput(ClaudeInput):
    """Arguments of `LS`."""

    path: str = Field(description="Absolute path of the folder to show")
    ignore: list[str] | None = Field(
        default=None, description="Glob patterns of entries to leave out"
    )


class TodoItem(ClaudeInput):
    """One entry of the todo list."""

    content: str = Field(min_length=1)
    status: Literal["pending", "in_progress", "completed"]
    activeForm: str = Field(min_length=1)


class TodoWriteInput(ClaudeInput):
    """Arguments of `TodoWrite`."""

    todos: list[TodoItem] = Field(description="The whole list as it stands now")


class ExitPlanModeInput(ClaudeInput):
    """Arguments of `ExitPlanMode`."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    plan: str | None = Field(default=None, description="The plan the user is asked to approve")


class TaskInput(ClaudeInput):
    """Arguments of `Task`."""

    description: str = Field(description="A label for the task, three to five words long")
    prompt: str = Field(description="Everything the subagent needs to know to do the task")
    subagent_type: str | None = Field(
        default=None, description="Which kind of agent takes the task (one of those listed)"
    )
