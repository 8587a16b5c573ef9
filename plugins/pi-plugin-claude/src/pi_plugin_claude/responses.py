"""Claude Code's structured tool output (PostToolUse's `tool_response`, a result's
`tool_use_result`), built from a finished call's input, text and details."""

from __future__ import annotations

import re
from typing import Any

from pi_plugin_claude.edit_patch import structured_patch

NO_OUTPUT = "(Bash completed with no output)"
_NUMBERED = re.compile(r"^\s*\d+\t", re.MULTILINE)
_GLOB_TRUNCATED = "(Results are truncated. Consider using a more specific path or pattern.)"


def claude_tool_response(
    tool_name: str, tool_input: dict[str, Any], text: str, details: Any = None
) -> Any:
    """The object Claude Code reports for a successful call (the text for tools it has none)."""
    build = _BUILDERS.get(tool_name)
    if build is None:
        return details if details is not None else text
    return build(tool_input, text, details)


def _bash(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    return {
        "stdout": "" if text == NO_OUTPUT else text,
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
    }


def _read(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    body = text.split("\n\n[", 1)[0] if not text.startswith("<system-reminder>") else ""
    lines = _NUMBERED.sub("", body).split("\n") if body else []
    return {
        "type": "text",
        "file": {
            "filePath": str(tool_input.get("file_path", "")),
            "content": "\n".join(lines),
            "numLines": len(lines),
            "startLine": int(tool_input.get("offset") or 1),
            "totalLines": _total_lines(details, len(lines)),
        },
    }


def _total_lines(details: Any, shown: int) -> int:
    truncation = details.get("truncation") if isinstance(details, dict) else None
    if isinstance(truncation, dict) and isinstance(truncation.get("totalLines"), int):
        return int(truncation["totalLines"])
    return shown


def _write(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    return {
        "type": "create" if text.startswith("File created") else "update",
        "filePath": str(tool_input.get("file_path", "")),
        "content": str(tool_input.get("content", "")),
        "structuredPatch": [],
        "originalFile": None,
    }


def _edit(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    old = str(tool_input.get("old_string", ""))
    new = str(tool_input.get("new_string", ""))
    original = details.get("originalFile") if isinstance(details, dict) else None
    patch: list[dict[str, Any]] = []
    if isinstance(original, str):
        count = -1 if tool_input.get("replace_all") else 1
        after = original.replace(old, new, count)
        patch = structured_patch(original, after)
    return {
        "filePath": str(tool_input.get("file_path", "")),
        "oldString": old,
        "newString": new,
        "originalFile": original if isinstance(original, str) else None,
        "structuredPatch": patch,
        "userModified": False,
        "replaceAll": bool(tool_input.get("replace_all")),
    }


def _multi_edit(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    return {
        "filePath": str(tool_input.get("file_path", "")),
        "edits": list(tool_input.get("edits") or []),
        "originalFileContents": None,
        "structuredPatch": [],
        "userModified": False,
    }


def _glob(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    truncated = _GLOB_TRUNCATED in text
    names = [line for line in text.replace(_GLOB_TRUNCATED, "").splitlines() if line.strip()]
    if names == ["No files found"]:
        names = []
    return {"durationMs": 0, "numFiles": len(names), "filenames": names, "truncated": truncated}


def _grep(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    mode = str(tool_input.get("output_mode") or "files_with_matches")
    if text.startswith("No files found") or text.startswith("No matches found"):
        empty: dict[str, Any] = {"mode": mode, "numFiles": 0, "filenames": []}
        if mode == "content":
            empty.update(content="", numLines=0)
        elif mode == "count":
            empty.update(content="", numMatches=0)
        return empty
    lines = text.splitlines()
    if mode == "files_with_matches":
        if lines and lines[0].startswith("Found "):
            lines = lines[1:]  # the `Found N files` header
        names = [line for line in lines if line.strip()]
        return {"mode": mode, "numFiles": len(names), "filenames": names}
    if mode == "count":
        body, _, _ = text.partition("\n\nFound ")
        counts = [line.rpartition(":") for line in body.splitlines() if ":" in line]
        matches = sum(int(n) for _, _, n in counts if n.strip().isdigit())
        return {
            "mode": mode,
            "numFiles": len(counts),
            "filenames": [],
            "content": body,
            "numMatches": matches,
        }
    return {"mode": mode, "numFiles": 0, "filenames": [], "content": text, "numLines": len(lines)}


def _todo_write(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    if isinstance(details, dict) and "newTodos" in details:
        return {"oldTodos": details.get("oldTodos", []), "newTodos": details["newTodos"]}
    return {"oldTodos": [], "newTodos": list(tool_input.get("todos") or [])}


def _exit_plan_mode(tool_input: dict[str, Any], text: str, details: Any) -> dict[str, Any]:
    return {"plan": tool_input.get("plan"), "isAgent": False}


_BUILDERS = {
    "Bash": _bash,
    "Read": _read,
    "Write": _write,
    "Edit": _edit,
    "MultiEdit": _multi_edit,
    "Glob": _glob,
    "Grep": _grep,
    "TodoWrite": _todo_write,
    "ExitPlanMode": _exit_plan_mode,
}
