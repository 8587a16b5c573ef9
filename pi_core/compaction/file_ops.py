"""Which files the summarized history touched: from `read`/`write`/`edit` tool calls and from the
`readFiles`/`modifiedFiles` details that an earlier summary recorded."""

from __future__ import annotations

from typing import Any, NamedTuple

from pi_core.compaction.types import FileOperations
from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ToolCall
from pi_core.messages.llm import AssistantMessage


class FileLists(NamedTuple):
    """Sorted files only read, and sorted files written or edited."""

    read_files: list[str]
    modified_files: list[str]

    def to_details(self) -> dict[str, list[str]]:
        """Return the `details` pi stores on a compaction or branch summary entry."""
        return {"readFiles": list(self.read_files), "modifiedFiles": list(self.modified_files)}


def extract_file_ops_from_message(message: AgentMessage, file_ops: FileOperations) -> None:
    """Add the paths of an assistant message's read, write and edit tool calls to `file_ops`."""
    if not isinstance(message, AssistantMessage):
        return
    for block in message.content:
        if not isinstance(block, ToolCall):
            continue
        path = block.arguments.get("path") if block.arguments else None
        if not isinstance(path, str) or not path:
            continue
        if block.name == "read":
            file_ops.read.add(path)
        elif block.name == "write":
            file_ops.written.add(path)
        elif block.name == "edit":
            file_ops.edited.add(path)


def add_summary_details(details: Any, file_ops: FileOperations) -> None:
    """Carry an earlier summary's `readFiles` (as read) and `modifiedFiles` (as edited) forward."""
    if not isinstance(details, dict):
        return
    read_files = details.get("readFiles")
    if isinstance(read_files, list):
        file_ops.read.update(f for f in read_files if isinstance(f, str))
    modified_files = details.get("modifiedFiles")
    if isinstance(modified_files, list):
        file_ops.edited.update(f for f in modified_files if isinstance(f, str))


def _js_order(path: str) -> bytes:
    # JavaScript's default sort compares UTF-16 code units
    return path.encode("utf-16-be", "surrogatepass")


def compute_file_lists(file_ops: FileOperations) -> FileLists:
    """Split operations into files only read and files modified (written or edited), sorted."""
    modified = file_ops.edited | file_ops.written
    read_only = sorted((f for f in file_ops.read if f not in modified), key=_js_order)
    return FileLists(read_only, sorted(modified, key=_js_order))


def format_file_operations(read_files: list[str], modified_files: list[str]) -> str:
    """Render the lists as the `<read-files>` / `<modified-files>` tags pi appends to a summary."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    if not sections:
        return ""
    return "\n\n" + "\n\n".join(sections)
