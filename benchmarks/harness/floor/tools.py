"""The tools: their Chat Completions definitions, and `read` and `ls` (what the scenarios call)."""

from __future__ import annotations

import os
from typing import Any


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    """One tool definition in Chat Completions' format."""
    schema = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description,
                                             "parameters": schema}}  # fmt: skip


_STR = {"type": "string"}
_INT = {"type": "number"}
TOOLS = {
    "read": _tool("read", "Read a file's contents.",
                  {"path": _STR, "offset": _INT, "limit": _INT}, ["path"]),
    "bash": _tool("bash", "Run a shell command.", {"command": _STR, "timeout": _INT}, ["command"]),
    "edit": _tool("edit", "Replace exact text in a file.",
                  {"path": _STR, "edits": {"type": "array"}}, ["path", "edits"]),
    "write": _tool("write", "Write a file.", {"path": _STR, "content": _STR}, ["path", "content"]),
    "ls": _tool("ls", "List a directory.", {"path": _STR, "limit": _INT}, []),
}  # fmt: skip
DEFAULT_TOOLS = ("read", "bash", "edit", "write")
READ_LINES, READ_BYTES = 2000, 50 * 1024


def run_tool(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    """Run `read` or `ls` (the tools the scenarios call): the result's text and an error flag."""
    try:
        if name == "read":
            with open(arguments["path"], "rb") as handle:
                data = handle.read(READ_BYTES + 1)
            text = data[:READ_BYTES].decode("utf-8", "replace")
            lines = text.split("\n")
            if len(lines) > READ_LINES or len(data) > READ_BYTES:
                text = "\n".join(lines[:READ_LINES]) + "\n\n[truncated]"
            return text, False
        if name == "ls":
            path = arguments.get("path") or "."
            names = sorted(os.listdir(path), key=str.lower)
            shown = [n + "/" if os.path.isdir(os.path.join(path, n)) else n for n in names]
            return "\n".join(shown), False
        return f"Tool {name} not found", True
    except OSError as error:
        return str(error), True
